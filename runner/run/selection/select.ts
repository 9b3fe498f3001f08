import { isOperationId, OPERATIONS } from '../../../common/operations'
import { SPEC } from '../../../common/spec'
import type { CatalogueEntry } from './catalogue'

/** What the user asked for: within a kind any value matches (or); across kinds every kind must match (and). */
export interface Criteria {
  /** Check ids or id prefixes (--check). */
  checks?: string[]
  /** "<document> §N" (--section). */
  sections?: string[]
  /** Operation ids of common/operations.json (--operation). */
  operations?: string[]
  /** Suite files or folders (positional arguments), relative to the project. */
  files?: string[]
  /** Only these suite files (the read-only suites of `smoke`). */
  onlyFiles?: { label: string; files: string[] }
}

export interface SelectionResult {
  selected: CatalogueEntry[]
  /** How the selection was asked for, e.g. "--check SL-LIFE". */
  label: string
  /** Earlier lifecycle steps added because a later step was selected. */
  addedSteps: string[]
  /** When nothing matched: the nearest ids, sections or operations. */
  nearest: string[]
}

/** A usage error in the criteria themselves (an unknown document or operation id). */
export class SelectionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SelectionError'
  }
}

const DOCS: Record<string, string> = { sales: SPEC.sales, webhooks: SPEC.webhooks, webhook: SPEC.webhooks }
for (const d of Object.values(SPEC)) {
  DOCS[d] = d
  DOCS[d.replace(/\.md$/, '')] = d
}

/** "sales-service.md §5", "sales §5", "webhooks §6.2" -> document and section number. */
export function parseSection(s: string): { document: string; section: string } {
  const m = /^\s*([A-Za-z.-]+)\s*§\s*(\d+(?:\.\d+)*)\s*$/.exec(s)
  if (!m)
    throw new SelectionError(
      `--section: expected "<document> §N" (e.g. "sales-service.md §5" or "webhooks §6"), got '${s}'`,
    )
  const document = DOCS[m[1]!.toLowerCase()]
  if (!document)
    throw new SelectionError(`--section: unknown document '${m[1]}' (known: ${Object.values(SPEC).join(', ')})`)
  return { document, section: m[2]! }
}

/** The section numbers a check cites: "§3, §4" -> ["3", "4"]. */
export function citedSections(section: string): string[] {
  return [...section.matchAll(/§\s*(\d+(?:\.\d+)*)/g)].map((m) => m[1]!)
}

const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '')

function matches(e: CatalogueEntry, c: Criteria): boolean {
  if (c.checks?.length && !c.checks.some((x) => e.id.toUpperCase().startsWith(x.toUpperCase()))) return false
  if (c.sections?.length) {
    const cited = citedSections(e.section)
    const ok = c.sections.some((s) => {
      const q = parseSection(s)
      return q.document === e.document && cited.some((n) => n === q.section || n.startsWith(`${q.section}.`))
    })
    if (!ok) return false
  }
  if (c.operations?.length && !c.operations.some((op) => e.about.includes(op))) return false
  if (c.files?.length && !c.files.map(norm).some((f) => e.file === f || e.file.startsWith(`${f}/`))) return false
  if (c.onlyFiles && !c.onlyFiles.files.includes(e.file)) return false
  return true
}

const quote = (s: string) => (/[\s"]/.test(s) ? `"${s}"` : s)

/** "--check SL-LIFE --section "sales §5"" for the reports. */
export function selectionLabel(c: Criteria): string {
  const parts: string[] = []
  if (c.checks?.length) parts.push(`--check ${c.checks.join(',')}`)
  for (const s of c.sections ?? []) parts.push(`--section ${quote(s)}`)
  if (c.operations?.length) parts.push(`--operation ${c.operations.join(',')}`)
  if (c.onlyFiles) parts.push(c.onlyFiles.label)
  if (c.files?.length) parts.push(c.files.join(' '))
  return parts.join(' ')
}

export function hasCriteria(c: Criteria): boolean {
  return !!(c.checks?.length || c.sections?.length || c.operations?.length || c.files?.length || c.onlyFiles)
}

/** Edit distance, for the nearest matches of a selection that matched nothing. */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i += 1) {
    let prev = d[0]!
    d[0] = i
    for (let j = 1; j <= b.length; j += 1) {
      const cur = d[j]!
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return d[b.length]!
}

function nearestOf(query: string, candidates: string[], n = 5): string[] {
  const q = query.toUpperCase()
  return [...new Set(candidates)]
    .map((c) => ({
      c,
      d: Math.min(distance(q, c.toUpperCase()), distance(q, c.toUpperCase().slice(0, q.length)) + 0.5),
    }))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, n)
    .map((x) => x.c)
}

/**
 * The id prefixes of the catalogue ("SL-LIFE", "SL-LIFE-001", ...), the candidates for a --check that matched nothing.
 */
function prefixes(catalogue: CatalogueEntry[]): string[] {
  const out = new Set<string>()
  for (const e of catalogue) {
    const parts = e.id.split('-')
    for (let i = 2; i <= parts.length; i += 1) out.add(parts.slice(0, i).join('-'))
  }
  return [...out]
}

function nearest(catalogue: CatalogueEntry[], c: Criteria): string[] {
  const out: string[] = []
  for (const x of c.checks ?? []) out.push(...nearestOf(x, prefixes(catalogue)).map((p) => `--check ${p}`))
  for (const s of c.sections ?? []) {
    const q = parseSection(s)
    const cited = [
      ...new Set(catalogue.filter((e) => e.document === q.document).flatMap((e) => citedSections(e.section))),
    ].sort()
    out.push(`--section "${q.document} §N" with N one of ${cited.map((n) => `§${n}`).join(', ')}`)
  }
  for (const op of c.operations ?? []) {
    const with_ = [...new Set(catalogue.flatMap((e) => e.about))].sort()
    out.push(
      `--operation ${op}: checks declare or name ${with_.length} operation(s): ${nearestOf(op, with_, 5).join(', ')}`,
    )
  }
  for (const f of c.files ?? []) out.push(...nearestOf(norm(f), [...new Set(catalogue.map((e) => e.file))], 3))
  return out
}

/**
 * The checks of the catalogue the criteria select, in catalogue order. A selected step of a lifecycle brings the
 * earlier steps of that lifecycle with it (a step builds on the ones before it); they are named in `addedSteps`.
 */
export function selectChecks(catalogue: CatalogueEntry[], c: Criteria): SelectionResult {
  for (const op of c.operations ?? []) {
    if (!isOperationId(op)) {
      throw new SelectionError(
        `--operation: unknown operation id '${op}'; nearest: ${nearestOf(
          op,
          OPERATIONS.map((o) => o.id),
          5,
        ).join(', ')} (common/operations.json)`,
      )
    }
  }
  for (const s of c.sections ?? []) parseSection(s)
  const hit = new Set(catalogue.filter((e) => matches(e, c)).map((e) => e.id))
  const added: string[] = []
  const steps = new Map<string, CatalogueEntry[]>()
  for (const e of catalogue)
    if (e.lifecycle)
      steps.set(`${e.file}\u0000${e.lifecycle}`, [...(steps.get(`${e.file}\u0000${e.lifecycle}`) ?? []), e])
  for (const list of steps.values()) {
    const last = list.map((e) => hit.has(e.id)).lastIndexOf(true)
    for (const e of list.slice(0, last + 1)) {
      if (!hit.has(e.id)) {
        hit.add(e.id)
        added.push(e.id)
      }
    }
  }
  const selected = catalogue.filter((e) => hit.has(e.id))
  return {
    selected,
    label: selectionLabel(c),
    addedSteps: added,
    nearest: selected.length === 0 ? nearest(catalogue, c) : [],
  }
}

/** One line of --list: `id  document §section  file:line  requirement` (file:line: where the check is declared). */
export function listLine(e: CatalogueEntry, idWidth: number, whereWidth = 0): string {
  return `${e.id.padEnd(idWidth)}  ${`${e.document} ${e.section}`.padEnd(34)}  ${whereOf(e).padEnd(whereWidth)}  ${e.requirement}`
}

/** `file:line` of a catalogue entry (the file alone when its line is unknown). */
export function whereOf(e: CatalogueEntry): string {
  return e.line ? `${e.file}:${e.line}` : e.file
}
