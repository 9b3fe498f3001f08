import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_PROFILE, PROJECT_ROOT, REFERENCE_OPENAPI } from '../../common/config/target-config'
import { parseJsonc } from '../../common/config/jsonc'
import { TARGETS_DIR, targetSetName } from '../../runner/run/targets/entries'
import type { ChecksReport } from '../../runner/run/results/results'
import { startReference, type RunningReference } from '../../reference/server'
import { mergeProfile } from './merge-profile'
import { runConformance, type ConformanceRun } from './run-conformance'

/** A reference of a batch: its defects (none: faithful), its options (a variation's), and what its profile adds. */
export interface ReferenceTarget {
  defects?: string[]
  options?: Omit<NonNullable<Parameters<typeof startReference>[0]>, 'defects'>
  profile?: Record<string, unknown>
  /** The profile's name (default: reference, and the defects). */
  name?: string
}

/**
 * The profile of a reference reached by URL: the default profile with the reference's own published OpenAPI document
 * (as an embedded run validates against it: withReferenceContract), and the overrides (a variation's profile, the
 * name, the services).
 */
export function referenceProfile(overrides: Record<string, unknown>): Record<string, unknown> {
  const base = parseJsonc(readFileSync(DEFAULT_PROFILE, 'utf8')) as Record<string, unknown>
  delete base.$schema
  return mergeProfile(base, { openapi: [REFERENCE_OPENAPI], ...overrides })
}

/** One run of some suites against several references at once. */
export interface ReferenceBatchRun {
  run: ConformanceRun
  /** The target key of each reference, in the order given. */
  keys: string[]
  /** Each reference's own report (undefined: its checks never ran, e.g. the run stopped in its global setup). */
  reports: (ChecksReport | undefined)[]
}

export interface ReferenceBatchOptions {
  files?: string[]
  timeoutMs?: number
  /** Keep the run's reports folder (the caller removes run.reportsDir). */
  keepReports?: boolean
  /**
   * More environment for the run (e.g. CONFORMANCE_SEED: the same data in every run of the field-perturbation harness).
   */
  env?: Record<string, string>
}

/**
 * Runs the suites once against several reference services, each with its own defects: every reference is started
 * here on a free loopback port and reached by URL through a profile of its own (the default profile, with the
 * reference's published OpenAPI document, as an embedded run validates against it, and what the target adds: a
 * variation's profile), and one multi-target run
 * (TARGET_PROFILES, docs/targets.md) checks them all. Each target's report is its own, so each set of defects is
 * judged as if it had run alone; vitest's start-up, the global setup and the loading of the helpers are paid once for
 * all of them (docs/mutation.md "Batches"). The profiles and the generated entry folder are removed afterwards.
 */
export async function runAgainstReferences(
  targets: ReferenceTarget[],
  o: ReferenceBatchOptions = {},
): Promise<ReferenceBatchRun> {
  const dir = mkdtempSync(join(tmpdir(), 'lc-batch-'))
  const references: RunningReference[] = []
  // keys of their own: two batches at once must not share the generated entry folder of their set of targets
  const tag = randomBytes(3).toString('hex')
  const keys = targets.map((_, i) => `r${tag}-${i}`)
  try {
    const profiles: string[] = []
    for (const [i, t] of targets.entries()) {
      const defects = t.defects ?? []
      const ref = await startReference({ ...(t.options ?? {}), defects })
      references.push(ref)
      const path = join(dir, `${keys[i]}.json`)
      const services = { salesBaseUrl: ref.url, authUrl: `${ref.url}/api/v1/identifier`, webhookBaseUrl: ref.url }
      const name = t.name ?? `reference${defects.length ? `+${defects.join('+')}` : ''}`
      writeFileSync(path, JSON.stringify(referenceProfile({ ...(t.profile ?? {}), name, services })))
      profiles.push(path)
    }
    const run = await runConformance({
      env: { ...(o.env ?? {}), TARGET_PROFILES: profiles.join(',') },
      ...(o.files ? { files: o.files } : {}),
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.keepReports ? { keepReports: true } : {}),
    })
    return { run, keys, reports: keys.map((k) => run.targets[k]) }
  } finally {
    await Promise.all(references.map((r) => r.close()))
    rmSync(join(PROJECT_ROOT, TARGETS_DIR, targetSetName(keys)), { recursive: true, force: true })
    rmSync(dir, { recursive: true, force: true })
  }
}
