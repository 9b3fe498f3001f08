import { relative, resolve } from 'node:path'
import { INSTALLED, PROJECT_ROOT } from '../../common/project-root'
import { SPEC, type CheckMeta } from '../../common/spec'
import { INVARIANTS } from '../../helpers/model/invariants'
import { SELECTED_CHECKS_ENV } from '../../common/selection'
import type { TargetConfig } from '../../helpers/config/types'
import { suiteFileOf } from '../targets/entries'
import { aboutOperations } from './about'
import { catalogueKey, readCachedCatalogue, writeCachedCatalogue } from './catalogue-cache'

/** One check of the catalogue, as its suite file defines it (nothing is run to know it). */
export interface CatalogueEntry {
  id: string
  document: string
  section: string
  requirement: string
  about: string[]
  /** Suite file, relative to the project. */
  file: string
  /** The full name of the lifecycle (ordered steps) it is a step of; its earlier steps must run before it. */
  lifecycle?: string
}

/**
 * Every check of the suites (or of `files`) for this target, read by collecting the suite files with vitest without
 * running any check and without the global setup (nothing is started, no request is sent): each check carries its meta
 * from its definition (helpers/checks/check.ts). The target's resolved configuration is provided as the global setup
 * would, since some suites define one check per product of the profile. Order: file, then definition order.
 */
export async function collectCatalogue(target: { target?: TargetConfig; targets?: Record<string, TargetConfig> }, files: string[] = []): Promise<CatalogueEntry[]> {
  // collecting takes seconds (vitest transforms and imports every suite): the result is kept, keyed by the contents
  // of everything it is collected from (runner/selection/catalogue-cache.ts)
  const key = catalogueKey({ target, files: files.map((f) => relative(PROJECT_ROOT, resolve(process.cwd(), f))) })
  const cached = readCachedCatalogue<CatalogueEntry>(key)
  if (cached) return cached
  const collected = await collectWithVitest(target, files)
  if (collected.length > 0) writeCachedCatalogue(key, collected)
  return collected
}

async function collectWithVitest(target: { target?: TargetConfig; targets?: Record<string, TargetConfig> }, files: string[]): Promise<CatalogueEntry[]> {
  const { createVitest } = await import('vitest/node')
  const saved = process.env[SELECTED_CHECKS_ENV]
  delete process.env[SELECTED_CHECKS_ENV]
  const quiet = process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING
  process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING = 'true'
  // one file per suite (no lane, runner/targets/lanes.ts): each check is collected from its own suite file
  const lanes = process.env.CONFORMANCE_LANES
  process.env.CONFORMANCE_LANES = '0'
  const vitest = await createVitest('test', {
    config: resolve(PROJECT_ROOT, 'vitest.config.ts'),
    // installed: the config is loaded in memory, not bundled into node_modules/.vite-temp
    ...(INSTALLED ? { configLoader: 'runner' as const } : {}),
    root: PROJECT_ROOT,
    globalSetup: [],
    setupFiles: [],
    reporters: [{}],
    watch: false,
    provide: target,
    // collecting is CPU-bound (transforming and importing the suites): more workers than cores only compete
    maxWorkers: 2,
  })
  try {
    const { testModules, unhandledErrors } = await vitest.collect(files.map((f) => relative(PROJECT_ROOT, resolve(process.cwd(), f))))
    const broken = testModules.flatMap((m) => m.errors().map((e) => `${relative(PROJECT_ROOT, m.moduleId)}: ${e.message}`))
    if (unhandledErrors.length > 0 || broken.length > 0) {
      throw new Error(`the suites could not be collected: ${[...broken, ...unhandledErrors.map((e) => (e as Error).message)].join('; ')}`)
    }
    const out: CatalogueEntry[] = []
    const seen = new Set<string>()
    for (const m of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
      for (const tc of m.children.allTests()) {
        const check = tc.meta().check as (CheckMeta & { document: string; lifecycle?: string }) | undefined
        if (!check || seen.has(check.id)) continue
        seen.add(check.id)
        out.push({
          id: check.id,
          document: check.document,
          section: check.section,
          requirement: check.requirement,
          about: aboutOperations(check),
          file: suiteFileOf(relative(PROJECT_ROOT, m.moduleId).split('\\').join('/')),
          ...(check.lifecycle ? { lifecycle: check.lifecycle } : {}),
        })
      }
    }
    // the model's invariants (helpers/model/invariants.ts) are checks of their own, judged on every answer of the run
    if (out.length > 0) {
      for (const inv of INVARIANTS) out.push({ id: inv.id, document: SPEC[inv.spec], section: inv.section, requirement: inv.requirement, about: [], file: 'helpers/model/invariants.ts' })
    }
    return out
  } finally {
    await vitest.close()
    if (saved !== undefined) process.env[SELECTED_CHECKS_ENV] = saved
    if (quiet === undefined) delete process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING
    if (lanes === undefined) delete process.env.CONFORMANCE_LANES
    else process.env.CONFORMANCE_LANES = lanes
  }
}
