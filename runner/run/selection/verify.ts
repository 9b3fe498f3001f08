import type { CatalogueEntry, CollectedBlock } from './catalogue'
import type { SelectionResult } from './select'

/** Where the model's invariants live: judged on the answers of whatever checks run, never run as tests of their own. */
export const INVARIANTS_FILE = 'helpers/oracle/invariants.ts'

/** What a selection makes vitest run, simulated on the collected test tree (docs/reports.md, "Selections"). */
export interface SimulatedRun {
  /** The suite files the CLI hands to vitest. */
  files: string[]
  /**
   * The checks vitest runs, in file order (blocks without a selected check are skipped:
   * runner/vitest/selected-blocks.ts).
   */
  ran: string[]
  /** What differs from what `--list` shows for the selection; empty when the run is exactly the selection. */
  problems: string[]
}

/**
 * Simulates, without running anything, what a run of `result` executes: the CLI passes the runnable ids
 * (common/selection.ts) and their files; helpers/checks/check.ts defines only the selected checks; a test that is not
 * a check is defined in every run; a block left without a check is skipped. The problems name every difference
 * with the selection: a selected check that would not run, a check (or a bare test) that would run unselected, a
 * file that would run nothing, a lifecycle step whose earlier steps are not in the selection.
 */
export function simulateSelection(
  tree: ReadonlyMap<string, CollectedBlock>,
  result: Pick<SelectionResult, 'selected'>,
): SimulatedRun {
  const runnable = result.selected.filter((e) => e.file !== INVARIANTS_FILE)
  const want = new Set(runnable.map((e) => e.id))
  const files = [...new Set(runnable.map((e) => e.file))]
  const ran: string[] = []
  const problems: string[] = []
  for (const file of files) {
    const root = tree.get(file)
    if (!root) {
      problems.push(`${file}: not among the collected suite files`)
      continue
    }
    const before = ran.length
    const visit = (b: CollectedBlock, path: string): void => {
      b.tests.forEach((id, i) => {
        if (id === undefined)
          problems.push(`${path}: test #${i + 1} is not a check (no meta.check): it runs in every selection`)
        else if (want.has(id)) {
          ran.push(id)
          const earlier = b.tests.slice(0, i).filter((x): x is string => x !== undefined && !want.has(x))
          const entry = runnable.find((e) => e.id === id)
          if (entry?.lifecycle && entry.lifecycle === b.name && earlier.length > 0)
            problems.push(`${id}: lifecycle step selected without its earlier step(s) ${earlier.join(', ')}`)
        }
      })
      for (const c of b.blocks) visit(c, `${path} > ${c.name}`)
    }
    visit(root, file)
    if (ran.length === before) problems.push(`${file}: handed to vitest but would run no check`)
  }
  const counts = new Map<string, number>()
  for (const id of ran) counts.set(id, (counts.get(id) ?? 0) + 1)
  for (const [id, n] of counts)
    if (n > 1) problems.push(`${id}: defined ${n} times in the selected files: it would run ${n} times`)
  for (const id of want)
    if (!counts.has(id))
      problems.push(
        `${id}: selected (shown by --list) but not defined in ${runnable.find((e) => e.id === id)?.file}: it would ` +
          `not run`,
      )
  return { files, ran, problems }
}

/** Every selection a user can make of one thing: each id, each id prefix, each cited section, each operation. */
export function everySingleSelection(
  catalogue: CatalogueEntry[],
): { kind: 'check' | 'section' | 'operation'; value: string }[] {
  const out: { kind: 'check' | 'section' | 'operation'; value: string }[] = []
  const prefixes = new Set<string>()
  for (const e of catalogue) {
    const parts = e.id.split('-')
    for (let i = 2; i <= parts.length; i += 1) prefixes.add(parts.slice(0, i).join('-'))
  }
  for (const p of [...prefixes].sort()) out.push({ kind: 'check', value: p })
  const sections = new Set<string>()
  for (const e of catalogue)
    for (const m of e.section.matchAll(/§\s*(\d+(?:\.\d+)*)/g)) sections.add(`${e.document} §${m[1]}`)
  for (const s of [...sections].sort()) out.push({ kind: 'section', value: s })
  for (const op of [...new Set(catalogue.flatMap((e) => e.about))].sort()) out.push({ kind: 'operation', value: op })
  return out
}
