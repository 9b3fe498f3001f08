import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { expect } from 'vitest'
import { join, resolve } from 'node:path'
import { PROJECT_ROOT } from '../../helpers/client/config/target-config'
import { TARGETS_DIR, targetSetName } from '../../runner/targets/entries'
import type { CheckOutcome } from '../../runner/reporting/results'
import { startReference, type RunningReference } from '../../reference/server'
import { runConformance } from '../../scripts/harness/run-conformance'

/** What one defect's target of a batch showed. */
export interface DefectOutcome {
  defect: string
  /** The target's report was written (its checks ran). */
  ran: boolean
  /** Its checks, as its own checks.json lists them. */
  checks: CheckOutcome[]
  failedIds: string[]
  /** The batch's exit code (vitest's, for all its targets). */
  batchExitCode: number | null
  /** The tail of the batch's console, for a failure message. */
  output: string
  /** The checks that failed against the batch's faithful reference (its control target): none, or the batch proves nothing. */
  controlFailedIds: string[]
}

/** One defect case of a proof: the suite file (or folder) to run, and optionally a name pattern (vitest -t). */
export interface BatchCase {
  defect: string
  file: string
  only?: string
}

/**
 * Runs one suite file against several references at once, each with one defect: one reference service per defect,
 * started here on a free loopback port, and one multi-target conformance run (TARGET_PROFILES, docs/targets.md) with a
 * profile per reference. A defect's outcome is its own target's report: each defect is judged as if it had run alone,
 * but vitest's start-up, the global setup and the loading of the helpers are paid once per batch instead of once per
 * defect (docs/ci.md "Defect proofs"). Each reference is reached by URL and serves its own published OpenAPI
 * document, which the profile names. The batch's first target is a faithful reference (its control): a check that fails
 * there fails for a reason of the batch's own, so no case may count it. The generated entry folder of the batch's
 * targets is removed afterwards.
 */
export async function runDefectBatch(files: string[], defects: string[], timeoutMs = 540_000): Promise<DefectOutcome[]> {
  // removed here, not when the test that started the batch ends: a batch outlives the first of its cases
  const dir = mkdtempSync(join(tmpdir(), 'lc-batch-'))
  const references: RunningReference[] = []
  // keys of their own: two batches at once must not share the generated entry folder of their set of targets
  const tag = randomBytes(3).toString('hex')
  // the first target is a faithful reference, the batch's control: what fails there is not any defect's doing
  const all = ['', ...defects]
  const keys = all.map((_, i) => `d${tag}-${i}`)
  try {
    const profiles: string[] = []
    for (const [i, defect] of all.entries()) {
      const ref = await startReference({ defects: defect ? [defect] : [] })
      references.push(ref)
      const path = join(dir, `${keys[i]}.json`)
      const services = { salesBaseUrl: ref.url, authUrl: `${ref.url}/api/v1/identifier`, webhookBaseUrl: ref.url }
      const profile = { extends: resolve(PROJECT_ROOT, 'fixtures/targets/reference.json'), name: `reference-${defect || 'faithful'}`, services, openapi: ['{salesBaseUrl}/openapi.json'] }
      writeFileSync(path, JSON.stringify(profile))
      profiles.push(path)
    }
    const run = await runConformance({ files, env: { TARGET_PROFILES: profiles.join(',') }, timeoutMs })
    const failed = (checks: CheckOutcome[]) => checks.filter((c) => c.status === 'failed').map((c) => c.id)
    const control = run.targets[keys[0]!]
    const controlFailedIds = control ? failed(control.checks) : ['(the control target did not run)']
    return defects.map((defect, i) => {
      const report = run.targets[keys[i + 1]!]
      const checks = report?.checks ?? []
      return { defect, ran: report !== undefined, checks, failedIds: failed(checks), batchExitCode: run.exitCode, output: run.output.slice(-3000), controlFailedIds }
    })
  } finally {
    await Promise.all(references.map((r) => r.close()))
    rmSync(join(PROJECT_ROOT, TARGETS_DIR, targetSetName(keys)), { recursive: true, force: true })
    rmSync(dir, { recursive: true, force: true })
  }
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

const sameCase = (a: BatchCase, b: BatchCase) => a.defect === b.defect && a.file === b.file && (a.only ?? '') === (b.only ?? '')

/**
 * The outcome of each case of a proof file, from batches (planBatches). The first outcome asked for starts every
 * batch, in order, through `limit` (the proof file's limiter, shared with its other conformance runs); each case then
 * awaits its own batch.
 */
export function defectBatches(cases: BatchCase[], limit: <T>(fn: () => Promise<T>) => Promise<T>, size = 10): (c: BatchCase) => Promise<DefectOutcome> {
  const batches = planBatches(cases, size)
  let runs: Promise<DefectOutcome[]>[] | undefined
  const start = () =>
    (runs ??= batches.map((b) => {
      const files = [b[0]!.file, ...(b[0]!.only ? ['-t', b[0]!.only] : [])]
      const run = limit(() => runDefectBatch(files, b.map((c) => c.defect)))
      run.catch(() => undefined) // awaited by the batch's cases, which fail with the error: never an unhandled rejection
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
  expect(o.controlFailedIds, `${o.defect}: checks failed against the batch's faithful control reference\n${o.output}`).toEqual([])
}
