import { OPERATIONS } from '../../../common/operations'

/**
 * The operations a check's requirement is ABOUT (docs/reports.md "Which operation a failure is about"), not merely
 * the ones it called on the way:
 * 1. the ones its meta declares (`about: ['sales.quote.bind']`);
 * 2. an operation id inside its id (SEC-NOTOKEN-sales.quote.create is about sales.quote.create);
 * 3. for a failed check, the operation of the request its failing assertion examined (`failedOn`: its FailureRecord's
 *    operation, helpers/checks/task-meta.ts).
 * A check with none of these marks no operation FAILED in the matrix; its failure still counts in the verdict.
 */
export function aboutOperations(
  check: { id: string; about?: readonly string[]; requirement?: string },
  failedOn?: string,
): string[] {
  const out = new Set<string>(check.about ?? [])
  for (const op of OPERATIONS) if (check.id.includes(op.id)) out.add(op.id)
  if (out.size === 0 && check.requirement) for (const op of namedIn(check.requirement)) out.add(op)
  if (out.size === 0 && failedOn) out.add(failedOn)
  return [...out].sort()
}

/**
 * The operations a requirement names as "METHOD /path" (the catalogue's template, whole or without its service
 * prefix: "POST /api/webhook/subscription", "GET /schemes/{type}/regular/{name}"); the longest match wins per method.
 */
export function namedIn(requirement: string): string[] {
  const found: { id: string; len: number; at: number }[] = []
  for (const { id, len, re } of spellings()) {
    const m = re.exec(requirement)
    if (m) found.push({ id, len, at: m.index })
  }
  // at one place in the text the most specific template wins (/subscription/{id} over /subscription)
  const best = new Map<number, { id: string; len: number }>()
  for (const f of found) if ((best.get(f.at)?.len ?? -1) < f.len) best.set(f.at, f)
  return [...new Set([...best.values()].map((f) => f.id))]
}

/**
 * Each operation's two spellings in a requirement (its whole template and the template without its service prefix),
 * compiled once: the summary asks for every check of the run, and compiling them per check cost about 0.1 s.
 */
let compiled: { id: string; len: number; re: RegExp }[] | undefined

function spellings(): { id: string; len: number; re: RegExp }[] {
  compiled ??= OPERATIONS.flatMap((op) => {
    const short = op.path.replace(/^\/api\/v1\/ledger(?=\/)|^\/api\/webhook(?=\/)/, '')
    const spelled = (p: string) => new RegExp(`\\b${op.method} ${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/{])`)
    // not global: exec() keeps no state between two requirements
    return [op.path, short].map((p) => ({ id: op.id, len: p.length, re: spelled(p) }))
  })
  return compiled
}
