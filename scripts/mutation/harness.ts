import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { PROJECT_ROOT } from '../../helpers/client/config/target-config'
import { DEFECTS, type DefectInfo } from '../../reference/defects/catalogue'
import { assertVariationNames, VARIATIONS, type VariationName } from '../../reference/variations/catalogue'
import type { MutationArgs } from './args'
import { classifyDefect, classifyVariation } from './classify'
import { failureDistribution } from './distribution'
import { markdownReport } from './format'
import { mapPool } from './pool'
import { runWithDefects, runWithVariation } from './run-target'
import { falseAlarms, meetsBar, score } from './score'
import type { MutationReport, RunSummary } from './types'

type Entry = DefectInfo & { undetectable?: string }

type Job = { kind: 'baseline' } | { kind: 'defect'; name: string } | { kind: 'variation'; name: VariationName }

function catalogue(): Record<string, Entry> {
  return DEFECTS as Record<string, Entry>
}

/** The defects and variations a run covers; throws naming any unknown name. */
export function selection(args: Pick<MutationArgs, 'defects' | 'variations'>): { defects: string[]; variations: VariationName[] } {
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
export function areaSuites(area: string, exists: (path: string) => boolean = (p) => existsSync(resolve(PROJECT_ROOT, p))): string[] | undefined {
  const also: Record<string, string[]> = { auth: ['suites/security'], sales: ['suites/policies'] }
  const folders = [`suites/${area}`, ...(also[area] ?? [])].filter(exists)
  return folders.length > 0 ? folders : undefined
}

/**
 * Runs the suite once against the faithful reference, once per defect and once per benign variation,
 * `parallel` runs at a time, and classifies every run. Defects marked undetectable are not run.
 */
export async function runMutation(args: MutationArgs, log: (line: string) => void = () => {}): Promise<MutationReport> {
  const { defects, variations } = selection(args)
  const all = catalogue()
  const startedAt = new Date().toISOString()
  const started = performance.now()
  const jobs: Job[] = [
    { kind: 'baseline' },
    ...variations.map((name) => ({ kind: 'variation' as const, name })),
    ...defects.filter((d) => !all[d]!.undetectable).map((name) => ({ kind: 'defect' as const, name })),
  ]
  const suite = { timeoutMs: args.timeoutMs, ...(args.files ? { files: args.files } : {}) }
  let done = 0
  const runs = await mapPool(jobs, args.parallel, async (job) => {
    const scoped = job.kind === 'defect' && args.scope === 'area' && !args.files ? areaSuites(all[job.name]!.area) : undefined
    const summary: RunSummary =
      job.kind === 'variation' ? await runWithVariation(job.name, suite) : await runWithDefects(job.kind === 'defect' ? [job.name] : [], scoped ? { ...suite, files: scoped } : suite)
    done += 1
    const label = job.kind === 'baseline' ? 'faithful reference' : `${job.kind} ${job.name}`
    log(`[${done}/${jobs.length}] ${label}: ${summary.failed.length} failed of ${summary.checksRun} checks, exit ${summary.exitCode} (${(summary.wallMs / 1000).toFixed(1)} s)`)
    return { job, summary }
  })
  const baselineRun = runs.find((r) => r.job.kind === 'baseline')!.summary
  const baseline = classifyVariation('faithful reference', 'The reference service as it is, embedded (npm run conformance).', baselineRun)
  const baselineFailed = new Set(baselineRun.failed.map((f) => f.id))
  const byName = new Map(runs.filter((r) => r.job.kind !== 'baseline').map((r) => [`${r.job.kind}:${(r.job as { name: string }).name}`, r.summary]))
  const defectResults = defects.map((d) => classifyDefect(d, all[d]!, byName.get(`defect:${d}`), baselineFailed))
  const variationResults = variations.map((v) => classifyVariation(v, VARIATIONS[v].description, byName.get(`variation:${v}`)!))
  const s = score(defectResults)
  const alarms = falseAlarms(variationResults)
  return {
    startedAt,
    wallMs: Math.round(performance.now() - started),
    parallel: args.parallel,
    scope: args.scope,
    bar: args.bar,
    baseline,
    score: s,
    falseAlarms: alarms,
    defects: defectResults,
    distribution: failureDistribution(defectResults),
    variations: variationResults,
    passed: meetsBar(s, args.bar, alarms, baseline.verdict === 'green'),
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
