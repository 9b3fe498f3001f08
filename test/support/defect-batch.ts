import { expect } from 'vitest'
import type { CheckOutcome } from '../../runner/run/results/results'
import { runAgainstReferences } from '../../scripts/harness/reference-batch'

/** What one defect's target of a batch showed. */
export interface DefectOutcome {
  defect: string
  /** The target's report was written (its checks ran). */
  ran: boolean
  /** Its checks, as its own checks.json lists them. */
  checks: CheckOutcome[]
  failedIds: string[]
  /** The tail of the batch's console, for a failure message. */
  output: string
  /**
   * The checks that failed against the batch's faithful reference (its control target): none, or the batch proves
   * nothing.
   */
  controlFailedIds: string[]
}

/** One defect case of a proof: the suite file (or folder) to run, and optionally a name pattern (vitest -t). */
export interface BatchCase {
  defect: string
  file: string
  only?: string
}

/**
 * Runs one suite file against several references at once, each with one defect, plus a faithful one first: the
 * batch's control (scripts/harness/reference-batch.ts). A defect's outcome is its own target's report; a check that
 * fails against the control fails for a reason of the batch's own, so no case may count it.
 */
export async function runDefectBatch(
  files: string[],
  defects: string[],
  timeoutMs = 540_000,
): Promise<DefectOutcome[]> {
  const { run, reports } = await runAgainstReferences([{}, ...defects.map((d) => ({ defects: [d] }))], {
    files,
    timeoutMs,
  })
  const failed = (checks: CheckOutcome[]) => checks.filter((c) => c.status === 'failed').map((c) => c.id)
  const controlFailedIds = reports[0] ? failed(reports[0].checks) : ['(the control target did not run)']
  return defects.map((defect, i) => {
    const report = reports[i + 1]
    const checks = report?.checks ?? []
    return {
      defect,
      ran: report !== undefined,
      checks,
      failedIds: failed(checks),
      output: run.output.slice(-3000),
      controlFailedIds,
    }
  })
}

/**
 * The batches of a proof file's cases: the cases of one suite file and name pattern together, in the order of the
 * cases, at most `size` defects to a batch; a defect named twice for the same file and pattern runs once.
 */
export function planBatches(cases: BatchCase[], size: number): BatchCase[][] {
  const groups = new Map<string, BatchCase[][]>()
  for (const c of cases) {
    const key = `${c.file}\u0000${c.only ?? ''}`
    const chunks = groups.get(key) ?? []
    groups.set(key, chunks)
    if (chunks.some((b) => b.some((x) => x.defect === c.defect))) continue
    if (chunks.length === 0 || chunks.at(-1)!.length >= size) chunks.push([])
    chunks.at(-1)!.push(c)
  }
  return [...groups.values()].flat()
}

const sameCase = (a: BatchCase, b: BatchCase) =>
  a.defect === b.defect && a.file === b.file && (a.only ?? '') === (b.only ?? '')

/**
 * The outcome of each case of a proof file, from batches (planBatches). The first outcome asked for starts every
 * batch, in order, through `limit` (the proof file's limiter, shared with its other conformance runs); each case then
 * awaits its own batch.
 */
export function defectBatches(
  cases: BatchCase[],
  limit: <T>(fn: () => Promise<T>) => Promise<T>,
  size = 10,
): (c: BatchCase) => Promise<DefectOutcome> {
  const batches = planBatches(cases, size)
  let runs: Promise<DefectOutcome[]>[] | undefined
  const start = () =>
    (runs ??= batches.map((b) => {
      const files = [b[0]!.file, ...(b[0]!.only ? ['-t', b[0]!.only] : [])]
      const run = limit(() =>
        runDefectBatch(
          files,
          b.map((c) => c.defect),
        ),
      )
      // awaited by the batch's cases, which fail with the error: never an unhandled rejection
      run.catch(() => undefined)
      return run
    }))
  return async (c) => {
    const all = start()
    const i = batches.findIndex((b) => b.some((x) => sameCase(x, c)))
    if (i < 0) throw new Error(`no batch holds ${c.defect} in ${c.file}`)
    return (await all[i]!).find((o) => o.defect === c.defect)!
  }
}

/** A defect's case holds: its target ran, the batch's faithful control passed, and every check it names failed. */
export function expectCaught(o: DefectOutcome, mustFail: string[]): void {
  expectJudged(o)
  for (const id of mustFail) expect(o.failedIds, `${o.defect}: failed: ${o.failedIds.join(', ')}`).toContain(id)
}

/** A defect's outcome can be judged: its target ran, and the batch's faithful control reference failed no check. */
export function expectJudged(o: DefectOutcome): void {
  expect(o.ran, `${o.defect}: its target has no report\n${o.output}`).toBe(true)
  expect(
    o.controlFailedIds,
    `${o.defect}: checks failed against the batch's faithful control reference\n${o.output}`,
  ).toEqual([])
}
