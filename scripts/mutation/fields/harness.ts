/**
 * Field-perturbation mutation (issue 39; docs/mutation.md "Field sensitivity"): record the map of a clean run (every
 * (operation, status, JSON path) of the reference's answers and notifications), then perturb each field alone, in a run
 * of the suite files that exercise its operation, against a reference with that one perturbation; a batch runs several
 * such references and a faithful control in one multi-target run (scripts/harness/reference-batch.ts). The field
 * sensitivity is caught / perturbed non-free fields, overall, per operation and for the answers of writes.
 */
import { rmSync } from 'node:fs'
import { OPERATIONS } from '../../../common/operations'
import { NOTIFICATION_OPERATION } from '../../../reference/variations/field-probe'
import { runAgainstReferences, type ReferenceTarget } from '../../harness/reference-batch'
import type { ChecksReport } from '../../../runner/run/results/results'
import { mapPool } from '../pool'
import { isPreflightStop, stopMessage } from '../summarize'
import { freeFieldOf, loadFreeFields, type FreeField } from './free-fields'
import { FieldPerturber } from './perturber'
import { EMIT_TEMPLATE, FieldRecorder, fileOfTest, filesByOperation, readTraffic } from './record'
import { allCaught, isCaughtOutcome, ofClass, perOperation, sensitivity, stratifiedSample } from './sensitivity'
import type { FieldEntry, FieldOutcome, FieldResult, FieldSensitivityReport } from './types'

/**
 * The data seed of every run of the harness (CONFORMANCE_SEED): the record and the perturbed runs send the same data.
 */
export const FIELD_DATA_SEED = 39

export interface FieldArgs {
  /**
   * all: every field of the map (the nightly); sample: `sampleSize` non-free fields, stratified by operation
   * (stratifiedSample).
   */
  mode: 'all' | 'sample'
  sampleSize?: number
  /** The sample's seed (which fields of each operation). */
  sampleSeed: number
  /** Perturbed references per multi-target run (plus the control). */
  batch: number
  parallel: number
  timeoutMs: number
  /**
   * Suite files or folders of the record run (default the whole suite); the perturbed runs use the files of each
   * field's operation among them.
   */
  files?: string[]
  /** A file of free fields (added to the oracle's table, if present). */
  free?: string
  /** Only the fields of these operations (ids of common/operations.json, or webhooks.notification). */
  operations?: string[]
  failOnMiss: boolean
  /** false: every field on all its files (the slow way); default: the quick pass first (PerturbOptions.quick). */
  quick?: boolean
  /**
   * The bar (0..1, the nightly's): the run fails when the sensitivity is under it or a field of a write's answer is not
   * caught.
   */
  bar?: number
}

type Checks = ChecksReport['checks']

const idsWith = (checks: Checks | undefined, statuses: string[]) =>
  new Set((checks ?? []).filter((c) => statuses.includes(c.status)).map((c) => c.id))

export interface RecordedMap {
  entries: FieldEntry[]
  wallMs: number
  checksRun: number
  /** Checks failed or errored in the clean run (the harness requires none). */
  failed: string[]
  /** Exchanges of each suite file in the clean run: what a file costs to run. */
  fileCost: Record<string, number>
  /**
   * `<operation> <status>` -> suite file -> its answers of that operation and status in the clean run (a notification:
   * the events it had emitted).
   */
  answers: Record<string, Record<string, number>>
}

/** The clean run with a recording probe: the map, and which files exercise each operation. */
export async function recordFieldMap(o: { files?: string[]; timeoutMs: number; seed?: number }): Promise<RecordedMap> {
  const recorder = new FieldRecorder()
  const t0 = performance.now()
  const b = await runAgainstReferences([{ name: 'reference (record)', options: { fieldProbe: recorder } }], {
    keepReports: true,
    timeoutMs: o.timeoutMs,
    env: { CONFORMANCE_SEED: String(o.seed ?? FIELD_DATA_SEED) },
    ...(o.files ? { files: o.files } : {}),
  })
  try {
    const traffic = readTraffic(b.run.reportsDir)
    const checks = b.reports[0]?.checks
    const entries = recorder.entries(filesByOperation(traffic))
    const fileCost: Record<string, number> = {}
    const answers: Record<string, Record<string, number>> = {}
    for (const t of traffic) {
      const f = fileOfTest(t.test)
      if (!f) continue
      fileCost[f] = (fileCost[f] ?? 0) + 1
      const op = t.operationId ?? (t.template === EMIT_TEMPLATE ? NOTIFICATION_OPERATION : undefined)
      if (!op) continue
      const k = op === NOTIFICATION_OPERATION ? `${op} sent` : `${op} ${t.status}`
      const m = (answers[k] ??= {})
      m[f] = (m[f] ?? 0) + 1
    }
    if (!checks)
      throw new Error(
        `the record run (clean reference) produced no report ` +
          `(exit ${b.run.exitCode}): ${stopMessage(b.run.output) ?? b.run.output.slice(-400)}`,
      )
    return {
      entries,
      wallMs: Math.round(performance.now() - t0),
      checksRun: checks.length,
      failed: [...idsWith(checks, ['failed', 'errored'])].sort(),
      fileCost,
      answers,
    }
  } finally {
    rmSync(b.run.reportsDir, { recursive: true, force: true })
  }
}

/** What one perturbed target showed, against its batch's control and the clean run. */
export function classifyField(o: {
  checks: Checks | undefined
  control: Checks | undefined
  baselineFailed: ReadonlySet<string>
  applied: number
  stop?: string
}): Pick<FieldResult, 'outcome' | 'newFailures' | 'newOther' | 'stopMessage'> {
  if (!o.checks) {
    if (o.stop && isPreflightStop(o.stop) && o.applied > 0)
      return { outcome: 'stopped', newFailures: [], stopMessage: o.stop }
    return {
      outcome: o.applied === 0 ? 'not-exercised' : 'error',
      newFailures: [],
      ...(o.stop ? { stopMessage: o.stop } : {}),
    }
  }
  if (o.applied === 0) return { outcome: 'not-exercised', newFailures: [] }
  const controlFailed = idsWith(o.control, ['failed', 'errored'])
  const controlOther = idsWith(o.control, ['errored', 'blocked'])
  const newFailures = o.checks
    .filter((c) => c.status === 'failed' && !controlFailed.has(c.id) && !o.baselineFailed.has(c.id))
    .map((c) => ({ id: c.id, ...(c.error ? { error: c.error.split('\n')[0]!.slice(0, 200) } : {}) }))
  if (newFailures.length > 0) return { outcome: 'caught', newFailures }
  const newOther = o.checks
    .filter(
      (c) =>
        (c.status === 'errored' || c.status === 'blocked') && !controlOther.has(c.id) && !o.baselineFailed.has(c.id),
    )
    .map((c) => `${c.id} (${c.status})`)
  if (newOther.length > 0) return { outcome: 'inconclusive', newFailures: [], newOther }
  return { outcome: 'missed', newFailures: [] }
}

/** The entries of a run of the harness: all, or the fixed sample of the non-free ones; restricted to `operations`. */
export function selectFields(
  entries: readonly FieldEntry[],
  free: readonly FreeField[],
  args: Pick<FieldArgs, 'mode' | 'sampleSize' | 'sampleSeed' | 'operations'>,
): { selected: FieldEntry[]; selection: FieldSensitivityReport['selection'] } {
  const pool = args.operations ? entries.filter((e) => args.operations!.includes(e.operation)) : [...entries]
  if (args.mode === 'all') return { selected: pool, selection: { mode: 'all' } }
  const nonFree = pool.filter((e) => !freeFieldOf(free, e))
  const selected = stratifiedSample(
    nonFree,
    args.sampleSize ?? 40,
    args.sampleSeed,
    (e) => e.operation,
    (e) => e.key,
  )
  return { selected, selection: { mode: 'sample', size: selected.length, of: nonFree.length, seed: args.sampleSeed } }
}

/**
 * What a run's start costs (vitest, the global setup, the helpers, and the batch's control), in suite files: a field
 * joins a batch that runs more files than its own when the extra files cost less than a batch of its own would.
 */
export const START_COST_FILES = 3

type Batch = { files: string[]; entries: FieldEntry[] }

/**
 * Fields with the same files share a batch: each batch is one multi-target run of those files, up to `batch` fields.
 * A batch left with room takes the fields of a smaller partial batch whose files are all among its own, when running
 * them costs less than a run of their own: at most 2 × their files + START_COST_FILES (a field may run more suite
 * files than exercise its operation, never fewer). A field with no files (the whole suite) only joins its kind.
 */
export function plannedBatches(entries: readonly FieldEntry[], batch: number): Batch[] {
  const groups = new Map<string, Batch>()
  for (const e of entries) {
    const key = e.files.join(',')
    const g = groups.get(key) ?? { files: e.files, entries: [] }
    g.entries.push(e)
    groups.set(key, g)
  }
  const out: Batch[] = []
  for (const g of groups.values())
    for (let i = 0; i < g.entries.length; i += batch)
      out.push({ files: g.files, entries: g.entries.slice(i, i + batch) })
  const partial = out
    .filter((b) => b.entries.length < batch && b.files.length > 0)
    .sort((a, b) => b.files.length - a.files.length)
  const merged = new Set<Batch>()
  for (const small of [...partial].reverse()) {
    const host = partial.find(
      (h) =>
        h !== small &&
        !merged.has(h) &&
        h.files.length > small.files.length &&
        h.entries.length + small.entries.length <= batch &&
        h.files.length <= 2 * small.files.length + START_COST_FILES &&
        small.files.every((f) => h.files.includes(f)),
    )
    if (!host) continue
    host.entries.push(...small.entries)
    merged.add(small)
  }
  return out.filter((b) => !merged.has(b))
}

export interface PerturbOptions {
  batch: number
  parallel: number
  timeoutMs: number
  /** Files for a field whose operation no traffic named (default: the whole suite). */
  defaultFiles?: string[]
  baselineFailed: ReadonlySet<string>
  free?: readonly FreeField[]
  seed?: number
  log?: (line: string) => void
  /**
   * The quick pass first (default true; false: every field on all its files, the slow way): each field of more than one
   * file runs on one of them alone (quickFile: the file where its operation is the largest share of the traffic), and
   * only
   * the fields that pass is not caught on run again on all their files. docs/mutation.md "The quick pass".
   */
  quick?: boolean
  /**
   * What each suite file costs (its exchanges in the clean run) and which answers each had (RecordedMap): the quick
   * pass's file.
   */
  fileCost?: Readonly<Record<string, number>>
  answers?: Readonly<Record<string, Readonly<Record<string, number>>>>
  /** Fields per run of the quick pass (default 2 × batch: one file is short). */
  quickBatch?: number
  /** Each field's result as soon as its run is judged (a quick pass's result may be followed by the full pass's). */
  onResult?: (r: FieldResult) => void
}

/**
 * The quick pass's file of a field (undefined when it has at most one file): the file where its operation's answers are
 * the largest share of the traffic (answers of that operation and status / the file's exchanges, in the clean run), so
 * a file about that operation, as cheap as such a file is; ties to the cheaper file, then by name.
 */
export function quickFile(
  e: FieldEntry,
  fileCost: Readonly<Record<string, number>>,
  answers: Readonly<Record<string, Readonly<Record<string, number>>>> = {},
): string | undefined {
  if (e.files.length <= 1) return undefined
  const mine = answers[`${e.operation} ${e.status}`] ?? {}
  const cost = (f: string) => fileCost[f] ?? Number.POSITIVE_INFINITY
  const share = (f: string) => (mine[f] ?? 0) / cost(f)
  return [...e.files].sort((a, b) => share(b) - share(a) || cost(a) - cost(b) || (a < b ? -1 : 1))[0]
}

/** The quick pass's runs: the fields with the same quick file together, up to `batch` a run. */
export function quickBatches(
  entries: readonly FieldEntry[],
  fileCost: Readonly<Record<string, number>>,
  batch: number,
  answers: Readonly<Record<string, Readonly<Record<string, number>>>> = {},
): Batch[] {
  const groups = new Map<string, FieldEntry[]>()
  for (const e of entries) {
    const f = quickFile(e, fileCost, answers)
    if (f) groups.set(f, [...(groups.get(f) ?? []), e])
  }
  const out: Batch[] = []
  for (const [f, members] of [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    for (let i = 0; i < members.length; i += batch) out.push({ files: [f], entries: members.slice(i, i + batch) })
  return out
}

/** Runs each field's perturbation alone (in batches with a faithful control) and classifies it. */
export async function perturbFields(
  entries: readonly FieldEntry[],
  o: PerturbOptions,
): Promise<{ results: FieldResult[]; controlFailures: string[] }> {
  const log = o.log ?? (() => {})
  const results = new Map<string, FieldResult>()
  const controlFailures = new Set<string>()
  let done = 0
  const env = { CONFORMANCE_SEED: String(o.seed ?? FIELD_DATA_SEED) }
  const runBatch = async (files: string[], members: FieldEntry[]) => {
    const perturbers = members.map((e) => new FieldPerturber(e))
    const targets: ReferenceTarget[] = [
      { name: 'reference (control)' },
      ...perturbers.map((p, i) => ({ name: `reference+field#${i + 1}`, options: { fieldProbe: p } })),
    ]
    const t0 = performance.now()
    const filesOfRun = files.length > 0 ? files : o.defaultFiles
    const b = await runAgainstReferences(targets, {
      keepReports: false,
      timeoutMs: o.timeoutMs,
      env,
      ...(filesOfRun ? { files: filesOfRun } : {}),
    })
    return { perturbers, reports: b.reports, output: b.run.output, wallMs: Math.round(performance.now() - t0) }
  }
  const judge = (
    e: FieldEntry,
    p: FieldPerturber,
    checks: Checks | undefined,
    control: Checks | undefined,
    stop: string | undefined,
    wallMs: number,
    files: string[],
    pass: 'quick' | 'full',
  ): FieldResult => {
    const freeField = o.free ? freeFieldOf(o.free, e) : undefined
    const c = classifyField({
      checks,
      control,
      baselineFailed: o.baselineFailed,
      applied: p.applied,
      ...(stop ? { stop } : {}),
    })
    return {
      ...e,
      free: freeField !== undefined,
      ...(freeField?.reason ? { freeReason: freeField.reason } : {}),
      ...c,
      applied: p.applied,
      ...(p.example
        ? { example: { exchange: p.example.exchange, before: p.example.before, after: p.example.after } }
        : {}),
      wallMs,
      pass,
      ranFiles: files.length > 0 ? files.length : (o.defaultFiles?.length ?? 0),
    }
  }
  const runPass = async (batches: Batch[], pass: 'quick' | 'full', total: number) => {
    await mapPool(batches, o.parallel, async (unit) => {
      let r = await runBatch(unit.files, unit.entries)
      const stopped = r.reports.every((x) => x === undefined)
      if (stopped && unit.entries.length > 1) {
        // a multi-target run stops when one target fails its preflight: each field alone (with its own control)
        for (const e of unit.entries) {
          r = await runBatch(unit.files, [e])
          const [control, mine] = r.reports
          results.set(
            e.key,
            judge(
              e,
              r.perturbers[0]!,
              mine?.checks,
              control?.checks,
              mine ? undefined : stopMessage(r.output),
              r.wallMs,
              unit.files,
              pass,
            ),
          )
        }
      } else {
        const [control, ...mine] = r.reports
        if (!control && mine.some((m) => m !== undefined)) controlFailures.add('(the control target did not run)')
        for (const id of idsWith(control?.checks, ['failed', 'errored']))
          if (!o.baselineFailed.has(id)) controlFailures.add(id)
        unit.entries.forEach((e, i) =>
          results.set(
            e.key,
            judge(
              e,
              r.perturbers[i]!,
              mine[i]?.checks,
              control?.checks,
              mine[i] ? undefined : stopMessage(r.output),
              r.wallMs,
              unit.files,
              pass,
            ),
          ),
        )
      }
      for (const e of unit.entries) o.onResult?.(results.get(e.key)!)
      done += unit.entries.length
      const outcomes = unit.entries.map((e) => results.get(e.key)!.outcome)
      const count = (x: FieldOutcome) => outcomes.filter((y) => y === x).length
      log(
        `[${pass} ${done}/${total}] ${unit.entries.length} field(s) ` +
          `on ${
            unit.files.length > 0 ? `${unit.files.length} file(s)` : 'the whole suite'
          }: ${count('caught') + count('stopped')} caught, ${count('missed')} ` +
          `missed, ${count('inconclusive')} inconclusive, ${count('not-exercised')} not ` +
          `exercised, ${count('error')} error (${(r.wallMs / 1000).toFixed(1)} s)`,
      )
    })
  }
  let rest: readonly FieldEntry[] = entries
  if (o.quick !== false && o.fileCost) {
    const quick = quickBatches(entries, o.fileCost, o.quickBatch ?? 2 * Math.max(1, o.batch), o.answers)
    const n = quick.reduce((k, b) => k + b.entries.length, 0)
    await runPass(quick, 'quick', n)
    // caught on its quick file: a check failed that passes against the same file's control; anything else runs again on
    // all its files
    rest = entries.filter((e) => {
      const r = results.get(e.key)
      return !r || !isCaughtOutcome(r.outcome)
    })
    done = 0
  }
  await runPass(plannedBatches(rest, Math.max(1, o.batch)), 'full', rest.length)
  return { results: entries.map((e) => results.get(e.key)!), controlFailures: [...controlFailures].sort() }
}

/**
 * Throws naming every --operations id that is neither an operation of common/operations.json nor webhooks.notification.
 */
export function assertFieldOperations(ids: readonly string[] | undefined): void {
  const known = new Set([...OPERATIONS.map((o) => o.id), NOTIFICATION_OPERATION])
  const unknown = (ids ?? []).filter((id) => !known.has(id))
  if (unknown.length > 0)
    throw new Error(
      `unknown operation(s): ${unknown.join(', ')} (ids of common/operations.json, or ${NOTIFICATION_OPERATION})`,
    )
}

/** The whole harness: record, select, perturb, judge. */
export async function runFieldSensitivity(
  args: FieldArgs,
  log: (line: string) => void = () => {},
): Promise<FieldSensitivityReport> {
  assertFieldOperations(args.operations)
  const startedAt = new Date().toISOString()
  const t0 = performance.now()
  const free = await loadFreeFields(args.free ? { file: args.free } : {})
  log(`free fields: ${free.source}`)
  const record = await recordFieldMap({ timeoutMs: args.timeoutMs, ...(args.files ? { files: args.files } : {}) })
  const operations = new Set(record.entries.map((e) => e.operation))
  log(
    `map: ${record.entries.length} fields of ${operations.size} operations, recorded ` +
      `in ${(record.wallMs / 1000).toFixed(1)} s (${record.checksRun} checks, ${record.failed.length} failed)`,
  )
  const { selected, selection } = selectFields(record.entries, free.fields, args)
  log(
    selection.mode === 'all'
      ? `perturbing all ${selected.length} fields`
      : `perturbing a sample of ${selected.length} of ${selection.of} non-free fields (stratified by operation, ` +
          `seed ${selection.seed})`,
  )
  const { results, controlFailures } = await perturbFields(selected, {
    batch: args.batch,
    parallel: args.parallel,
    timeoutMs: args.timeoutMs,
    baselineFailed: new Set(record.failed),
    free: free.fields,
    log,
    quick: args.quick !== false,
    fileCost: record.fileCost,
    answers: record.answers,
    ...(args.files ? { defaultFiles: args.files } : {}),
  })
  const overall = sensitivity(results)
  const caughtAll = allCaught(results)
  const writes = ofClass(results, 'write')
  const underBar = args.bar !== undefined && (overall.ratio < args.bar || writes.caught < writes.scored)
  return {
    startedAt,
    wallMs: Math.round(performance.now() - t0),
    record: {
      wallMs: record.wallMs,
      checksRun: record.checksRun,
      failed: record.failed,
      entries: record.entries.length,
      operations: operations.size,
    },
    seed: FIELD_DATA_SEED,
    selection,
    batch: args.batch,
    parallel: args.parallel,
    quick: args.quick !== false,
    freeSource: free.source,
    overall,
    writes,
    reads: ofClass(results, 'read'),
    notifications: ofClass(results, 'notification'),
    perOperation: perOperation(results),
    controlFailures,
    results,
    map: record.entries,
    allCaught: caughtAll,
    ...(args.bar !== undefined ? { bar: args.bar } : {}),
    passed:
      record.failed.length === 0 &&
      controlFailures.length === 0 &&
      overall.freeCaught === 0 &&
      (!args.failOnMiss || caughtAll) &&
      !underBar,
  }
}
