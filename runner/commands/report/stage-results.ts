import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join } from 'node:path'

export interface StageOptions {
  /** Only results that started at or after this time (ms); undefined keeps every result. */
  since?: number
  /** Added to every result as a parameter and a label, so reports of different tenants never merge. */
  tenant?: string
  /** Added to every result as a label: the history knows which run a line is (runner/commands/report/history.ts). */
  runId?: string
}

export interface StagedResults {
  dir: string
  results: number
  attachments: number
  skippedOlder: number
}

type AllureStep = { attachments?: { source?: string }[]; steps?: AllureStep[] }
type AllureResult = AllureStep & {
  start?: number
  testCaseId?: string
  historyId?: string
  parameters?: { name: string; value: string; excluded?: boolean }[]
  labels?: { name: string; value: string }[]
}

/** The label naming the run of a result. */
export const RUN_ID_LABEL = 'runId'

function sources(s: AllureStep, out: Set<string>): void {
  for (const a of s.attachments ?? []) if (a.source) out.add(a.source)
  for (const c of s.steps ?? []) sources(c, out)
}

/**
 * Copies the Allure results of one run (and the attachments they reference) from `from` to `to`:
 * reports/allure-results accumulates across runs, and a report must show one run's numbers.
 * With a tenant, each result gets a `tenant` parameter (which also enters its history id) and label.
 */
export function stageResults(from: string, to: string, o: StageOptions = {}): StagedResults {
  mkdirSync(to, { recursive: true })
  const staged: StagedResults = { dir: to, results: 0, attachments: 0, skippedOlder: 0 }
  if (!existsSync(from)) return staged
  const files = readdirSync(from)
  const keep = new Set<string>()
  for (const f of files) {
    if (!f.endsWith('-result.json')) continue
    const r = JSON.parse(readFileSync(join(from, f), 'utf8')) as AllureResult
    if (o.since !== undefined && (r.start ?? 0) < o.since) {
      staged.skippedOlder += 1
      continue
    }
    sources(r, keep)
    if (o.tenant) {
      r.parameters = [...(r.parameters ?? []).filter((p) => p.name !== 'tenant'), { name: 'tenant', value: o.tenant }]
      r.labels = [...(r.labels ?? []).filter((l) => l.name !== 'tenant'), { name: 'tenant', value: o.tenant }]
      if (r.testCaseId) r.historyId = `${r.testCaseId}:${createHash('md5').update(`tenant:${o.tenant}`).digest('hex')}`
    }
    if (o.runId)
      r.labels = [...(r.labels ?? []).filter((l) => l.name !== RUN_ID_LABEL), { name: RUN_ID_LABEL, value: o.runId }]
    writeFileSync(join(to, f), JSON.stringify(r))
    staged.results += 1
  }
  const shared = new Set(['categories.json', 'executor.json', 'environment.properties'])
  for (const f of files) {
    if (!keep.has(f) && !shared.has(f) && !f.endsWith('-container.json')) continue
    copyFileSync(join(from, f), join(to, f))
    if (keep.has(f)) staged.attachments += 1
  }
  return staged
}
