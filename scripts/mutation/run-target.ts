import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startReference } from '../../reference/server'
import {
  VARIATIONS,
  variationOptions,
  type VariationInfo,
  type VariationName,
} from '../../reference/variations/catalogue'
import { referenceProfile } from '../harness/reference-batch'
import { runConformance } from '../harness/run-conformance'
import { summarize } from './summarize'
import type { RunSummary } from './types'

export interface SuiteRunOptions {
  /** Suite files or folders; default every suite. */
  files?: string[]
  timeoutMs?: number
}

/** One run of the suite against the embedded reference with the given defects (none: the faithful reference). */
export async function runWithDefects(defects: string[], o: SuiteRunOptions = {}): Promise<RunSummary> {
  const started = Date.now()
  const run = await runConformance({
    defects,
    keepReports: true,
    ...(o.files ? { files: o.files } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  })
  return summarize(run, started)
}

/**
 * One run of the suite against a reference started here with one variation, as an external
 * target (the suite sees only its URLs), with the profile a target with that variation would have.
 */
export async function runWithVariation(name: VariationName, o: SuiteRunOptions = {}): Promise<RunSummary> {
  const info: VariationInfo = VARIATIONS[name]
  const dir = mkdtempSync(join(tmpdir(), 'lc-variation-'))
  const profilePath = join(dir, `${name}.json`)
  const profile = referenceProfile({ ...(info.profile ?? {}), name: `reference+${name}` })
  writeFileSync(profilePath, `${JSON.stringify(profile, null, 2)}\n`)
  const ref = await startReference(variationOptions([name]))
  try {
    const started = Date.now()
    const run = await runConformance({
      keepReports: true,
      env: {
        TARGET_PROFILE: profilePath,
        SALES_BASE_URL: ref.url,
        AUTH_URL: `${ref.url}/api/v1/identifier`,
        WEBHOOK_BASE_URL: ref.url,
      },
      ...(o.files ? { files: o.files } : {}),
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
    })
    return summarize(run, started)
  } finally {
    await ref.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
