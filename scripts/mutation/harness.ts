import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { DEFECTS, type DefectInfo } from '../../reference/defects/catalogue'
import {
  assertVariationNames,
  VARIATIONS,
  variationOptions,
  type VariationInfo,
  type VariationName,
} from '../../reference/variations/catalogue'
import { runAgainstReferences, type ReferenceTarget } from '../harness/reference-batch'
import type { MutationArgs } from './args'
import { classifyDefect, classifyVariation } from './classify'
import { failureDistribution } from './distribution'
import { markdownReport } from './format'
import { mapPool } from './pool'
import { runWithDefects, runWithVariation } from './run-target'
import { falseAlarms, meetsBar, score } from './score'
import { outputTail, summarizeTargets } from './summarize'
import type { MutationReport, RunSummary } from './types'

type Entry = DefectInfo & { undetectable?: string }

function catalogue(): Record<string, Entry> {
  return DEFECTS as Record<string, Entry>
}

/** The defects and variations a run covers; throws naming any unknown name. */
export function selection(args: Pick<MutationArgs, 'defects' | 'variations'>): {
  defects: string[]
  variations: VariationName[]
} {
  const all = catalogue()
  const defects = args.defects ?? Object.keys(all)
  const unknown = defects.filter((d) => !Object.hasOwn(all, d))
  if (unknown.length > 0) throw new Error(`unknown defect(s): ${unknown.join(', ')}`)
  const variations = args.variations ?? Object.keys(VARIATIONS)
  assertVariationNames(variations)
  return { defects, variations }
}

/**
 * Suites of a defect's area; undefined: the whole suite. Auth also runs suites/security (the token probes of every
 * operation); sales also runs suites/policies, whose flows read the financials and schedule of the issuing quote
 * after a recalculation (sales §4): the sales defects of calculation and issue are caught there (PL-VIEW-001).
 */
export function areaSuites(
  area: string,
  exists: (path: string) => boolean = (p) => existsSync(resolve(PROJECT_ROOT, p)),
): string[] | undefined {
  const also: Record<string, string[]> = { auth: ['suites/security'], sales: ['suites/policies'] }
  const folders = [`suites/${area}`, ...(also[area] ?? [])].filter(exists)
  return folders.length > 0 ? folders : undefined
}

type Item = { kind: 'defect'; name: string } | { kind: 'variation'; name: VariationName }

/** A run of the harness: the faithful reference, one defect or variation alone, or a batch of them. */
type Unit =
  | { kind: 'baseline' }
  | { kind: 'single'; item: Item; files?: string[] }
  | { kind: 'batch'; items: Item[]; files?: string[] }

const itemKey = (i: Item) => `${i.kind}:${i.name}`

/** The units of a run: the faithful reference, then the items alone (batch 1) or in batches of the same suites. */
export function plannedUnits(items: Item[], batch: number, filesOf: (i: Item) => string[] | undefined): Unit[] {
  const units: Unit[] = [{ kind: 'baseline' }]
  if (batch <= 1)
    return [
      ...units,
      ...items.map((item) => ({ kind: 'single' as const, item, ...(filesOf(item) ? { files: filesOf(item)! } : {}) })),
    ]
  const groups = new Map<string, { files: string[] | undefined; items: Item[] }>()
  for (const item of items) {
    const files = filesOf(item)
    const key = JSON.stringify(files ?? null)
    const g = groups.get(key) ?? { files, items: [] }
    g.items.push(item)
    groups.set(key, g)
  }
  for (const g of groups.values()) {
    for (let i = 0; i < g.items.length; i += batch)
      units.push({ kind: 'batch', items: g.items.slice(i, i + batch), ...(g.files ? { files: g.files } : {}) })
  }
  return units
}

/** An item's target in a batch: a reference with the defect, or with the variation's options and profile. */
function targetOf(item: Item): ReferenceTarget {
  if (item.kind === 'defect') return { defects: [item.name] }
  const profile = (VARIATIONS[item.name] as VariationInfo).profile
  return { options: variationOptions([item.name]), ...(profile ? { profile } : {}), name: `reference+${item.name}` }
}

/** A target of a batch that has no report while others have one: it broke (classified as an error). */
function noReport(tail: string, wallMs: number, exitCode: number | null): RunSummary {
  return { exitCode, checksRun: 0, failed: [], blocked: [], wallMs, outputTail: tail }
}

/**
 * Runs the suite once against the faithful reference, once per defect and once per benign variation, and classifies
 * every run. With `batch` > 1 the defects and variations run in batches (scripts/harness/reference-batch.ts): one
 * multi-target run per batch, each defect or variation against a reference of its own, with a faithful reference as the
 * batch's control; a check failing against a control is reported and fails the harness, and is never counted as a
 * defect's finding. A batch that stops before any check (a defect refused at login stops a multi-target run) runs its
 * items again one by one. `parallel` runs at a time. Defects marked undetectable are not run.
 */
export async function runMutation(args: MutationArgs, log: (line: string) => void = () => {}): Promise<MutationReport> {
  const { defects, variations } = selection(args)
  const all = catalogue()
  const startedAt = new Date().toISOString()
  const started = performance.now()
  const items: Item[] = [
    ...variations.map((name) => ({ kind: 'variation' as const, name })),
    ...defects.filter((d) => !all[d]!.undetectable).map((name) => ({ kind: 'defect' as const, name })),
  ]
  const filesOf = (i: Item) =>
    i.kind === 'defect' && args.scope === 'area' && !args.files ? areaSuites(all[i.name]!.area) : args.files
  const units = plannedUnits(items, args.batch, filesOf)
  const suite = { timeoutMs: args.timeoutMs }
  const summaries = new Map<string, RunSummary>()
  /** Per item: the checks its batch's faithful control failed (none when it ran alone). */
  const controlFailed = new Map<string, Set<string>>()
  const controlFailures = new Set<string>()
  let baselineRun: RunSummary | undefined
  let done = 0
  const total = items.length + 1
  const runAlone = async (item: Item, files: string[] | undefined): Promise<RunSummary> => {
    const o = { ...suite, ...(files ? { files } : {}) }
    return item.kind === 'variation' ? await runWithVariation(item.name, o) : await runWithDefects([item.name], o)
  }
  const record = (item: Item, summary: RunSummary) => {
    summaries.set(itemKey(item), summary)
    done += 1
    log(
      `[${done}/${total}] ${item.kind} ${item.name}: ${summary.failed.length} failed of ${summary.checksRun} checks, ` +
        `exit ${summary.exitCode} (${(summary.wallMs / 1000).toFixed(1)} s)`,
    )
  }
  await mapPool(units, args.parallel, async (unit) => {
    if (unit.kind === 'baseline') {
      baselineRun = await runWithDefects([], { ...suite, ...(args.files ? { files: args.files } : {}) })
      done += 1
      log(
        `[${done}/${total}] faithful reference: ${baselineRun.failed.length} failed of ${baselineRun.checksRun} ` +
          `checks, exit ${baselineRun.exitCode} (${(baselineRun.wallMs / 1000).toFixed(1)} s)`,
      )
      return
    }
    if (unit.kind === 'single') return record(unit.item, await runAlone(unit.item, unit.files))
    const t0 = Date.now()
    const b = await runAgainstReferences([{ name: 'reference (control)' }, ...unit.items.map(targetOf)], {
      ...suite,
      ...(unit.files ? { files: unit.files } : {}),
      keepReports: true,
    })
    const [control, ...mine] = summarizeTargets(b.run, b.keys, b.reports, t0)
    if (!control && mine.every((m) => m === undefined)) {
      // stopped before any check (a multi-target run stops when one target fails its preflight): each alone
      for (const item of unit.items) record(item, await runAlone(item, unit.files))
      return
    }
    const controlIds = new Set((control?.failed ?? [{ id: '(the control target did not run)' }]).map((f) => f.id))
    for (const id of controlIds) controlFailures.add(id)
    if (controlIds.size > 0) log(`  batch control (faithful reference) failed: ${[...controlIds].join(', ')}`)
    unit.items.forEach((item, i) => {
      controlFailed.set(itemKey(item), controlIds)
      record(item, mine[i] ?? noReport(outputTail(b.run.output), b.run.wallMs, b.run.exitCode))
    })
  })
  const baseline = classifyVariation(
    'faithful reference',
    'The reference service as it is, embedded (npm run conformance).',
    baselineRun!,
  )
  const baselineFailed = new Set(baselineRun!.failed.map((f) => f.id))
  const except = (key: string) => new Set([...baselineFailed, ...(controlFailed.get(key) ?? [])])
  const defectResults = defects.map((d) =>
    classifyDefect(d, all[d]!, summaries.get(`defect:${d}`), except(`defect:${d}`)),
  )
  const variationResults = variations.map((v) =>
    classifyVariation(v, VARIATIONS[v].description, summaries.get(`variation:${v}`)!),
  )
  const s = score(defectResults)
  const alarms = falseAlarms(variationResults)
  return {
    startedAt,
    wallMs: Math.round(performance.now() - started),
    parallel: args.parallel,
    scope: args.scope,
    batch: args.batch,
    bar: args.bar,
    baseline,
    ...(controlFailures.size > 0 ? { controlFailures: [...controlFailures].sort() } : {}),
    score: s,
    falseAlarms: alarms,
    defects: defectResults,
    distribution: failureDistribution(defectResults),
    variations: variationResults,
    passed: meetsBar(s, args.bar, alarms, baseline.verdict === 'green') && controlFailures.size === 0,
  }
}

/** Writes mutation.json and mutation.md into dir; returns their paths. */
export function writeMutationReport(report: MutationReport, dir: string): { json: string; md: string } {
  mkdirSync(dir, { recursive: true })
  const json = join(dir, 'mutation.json')
  const md = join(dir, 'mutation.md')
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`)
  writeFileSync(md, markdownReport(report))
  return { json, md }
}
