import { relative, resolve } from 'node:path'
import { INSTALLED, PROJECT_ROOT } from '../../../common/project-root'
import { SELECTED_CHECKS_ENV } from '../../../common/selection'
import type { TargetConfig } from '../../../common/config/types'
import { suiteFileOf } from '../targets/entries'
import { aboutOperations } from './about'
import type { TestCase, TestModule, TestSuite } from 'vitest/node'
import { catalogueKey, readCachedCatalogue, writeCachedCatalogue } from './catalogue-cache'
import { invariantEntries, staticCatalogue, type CatalogueEntry } from './static-catalogue'

export type { CatalogueEntry }

/** The products of the target(s): one target's, or every product any of them has, in first-seen order. */
function productsOf(target: { target?: TargetConfig; targets?: Record<string, TargetConfig> }): string[] {
  return [...new Set([target.target, ...Object.values(target.targets ?? {})].flatMap((t) => t?.products ?? []))]
}

/** The main product of the target, or of the first of several. */
function mainProductOf(target: { target?: TargetConfig; targets?: Record<string, TargetConfig> }): string | undefined {
  return (target.target ?? Object.values(target.targets ?? {})[0])?.product
}

function keyOf(target: { target?: TargetConfig; targets?: Record<string, TargetConfig> }, files: string[]): string {
  return catalogueKey({ target, files: files.map((f) => relative(PROJECT_ROOT, resolve(process.cwd(), f))) })
}

/**
 * The catalogue collectCatalogue would return, when it is already collected (cached); undefined otherwise. Never
 * collects.
 */
export function cachedCatalogue(
  target: { target?: TargetConfig; targets?: Record<string, TargetConfig> },
  files: string[] = [],
): CatalogueEntry[] | undefined {
  if (files.length === 0) {
    const fromMetadata = staticCatalogue(productsOf(target), mainProductOf(target))
    if (fromMetadata) return fromMetadata
  }
  return readCachedCatalogue<CatalogueEntry>(keyOf(target, files))
}

/**
 * Every check of the suites for this target. From the areas' static metadata (suites/<area>/checks.json, generated
 * by npm run checks:generate: runner/run/selection/static-catalogue.ts), expanded for the target's products: nothing
 * is collected. For a part of the suites (`files`), or when an area has no generated file, collected (below).
 */
export async function collectCatalogue(
  target: { target?: TargetConfig; targets?: Record<string, TargetConfig> },
  files: string[] = [],
): Promise<CatalogueEntry[]> {
  if (files.length === 0) {
    const fromMetadata = staticCatalogue(productsOf(target), mainProductOf(target))
    if (fromMetadata) return fromMetadata
  }
  return collectCatalogueFromSuites(target, files)
}

/** A check as collected, with the product it was defined for (a check defined once per product of the profile). */
export type CollectedCheck = CatalogueEntry & { product?: string }

/**
 * Every check of the suites (or of `files`) for this target, read by collecting the suite files with vitest without
 * running any check and without the global setup (nothing is started, no request is sent): each check carries its meta
 * from its definition (helpers/checks/check.ts). The target's resolved configuration is provided as the global setup
 * would, since some suites define one check per product of the profile. Order: file, then definition order. What
 * npm run checks:generate writes the static metadata from; `list` and the selection use it only without that.
 */
export async function collectCatalogueFromSuites(
  target: { target?: TargetConfig; targets?: Record<string, TargetConfig> },
  files: string[] = [],
  options: { products?: boolean } = {},
): Promise<CollectedCheck[]> {
  // collecting takes seconds (vitest transforms and imports every suite): the result is kept, keyed by the contents
  // of everything it is collected from (runner/run/selection/catalogue-cache.ts)
  const key = keyOf({ ...target, ...(options.products ? { products: true } : {}) } as typeof target, files)
  const cached = readCachedCatalogue<CollectedCheck>(key)
  if (cached) return cached
  const collected = await withCollectedSuites(target, files, undefined, (testModules) => {
    const out: CollectedCheck[] = []
    const seen = new Set<string>()
    for (const m of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
      for (const tc of m.children.allTests()) {
        const check = tc.meta().check
        if (!check || seen.has(check.id)) continue
        seen.add(check.id)
        const file = suiteFileOf(relative(PROJECT_ROOT, m.moduleId).split('\\').join('/'))
        out.push({
          id: check.id,
          document: check.document,
          section: check.section,
          requirement: check.requirement,
          about: aboutOperations(check),
          file,
          ...(check.at?.file === file ? { line: check.at.line } : {}),
          ...(check.lifecycle ? { lifecycle: check.lifecycle } : {}),
          ...(options.products && check.product ? { product: check.product } : {}),
        })
      }
    }
    // the model's invariants (helpers/oracle/invariants.ts) are checks of their own, judged on every answer of the run
    if (out.length > 0) out.push(...invariantEntries())
    return out
  })
  if (collected.length > 0) writeCachedCatalogue(key, collected)
  return collected
}

/** One block (describe) of a collected suite file: its checks' ids in definition order and its inner blocks. */
export interface CollectedBlock {
  name: string
  /** One entry per test the block defines directly: the check's id, or undefined for a test that is not a check. */
  tests: (string | undefined)[]
  blocks: CollectedBlock[]
}

/**
 * The test tree of the suite files as vitest collects them (nothing run, no request), per suite file: what the
 * selection proof (test/runner/run/selection/every-id.proof.test.ts) compares each selection's filter with. `selected`:
 * collect as a run with that selection would (common/selection.ts), else every check.
 */
export async function collectSuiteTree(
  target: { target?: TargetConfig; targets?: Record<string, TargetConfig> },
  files: string[] = [],
  selected?: string[],
): Promise<Map<string, CollectedBlock>> {
  return withCollectedSuites(target, files, selected, (testModules) => {
    const block = (name: string, children: Iterable<TestCase | TestSuite>): CollectedBlock => {
      const out: CollectedBlock = { name, tests: [], blocks: [] }
      for (const c of children) {
        if (c.type === 'test') out.tests.push((c.meta().check as { id?: string } | undefined)?.id)
        else out.blocks.push(block(c.name, c.children))
      }
      return out
    }
    return new Map(
      testModules.map((m) => [
        suiteFileOf(relative(PROJECT_ROOT, m.moduleId).split('\\').join('/')),
        block(relative(PROJECT_ROOT, m.moduleId), m.children),
      ]),
    )
  })
}

/**
 * Collects the suite files with vitest (no global setup, no set-up files, nothing run) and hands the modules to `read`.
 */
async function withCollectedSuites<T>(
  target: { target?: TargetConfig; targets?: Record<string, TargetConfig> },
  files: string[],
  selected: string[] | undefined,
  read: (modules: TestModule[]) => T,
): Promise<T> {
  const { createVitest } = await import('vitest/node')
  const saved = process.env[SELECTED_CHECKS_ENV]
  if (selected) process.env[SELECTED_CHECKS_ENV] = selected.join(',')
  else delete process.env[SELECTED_CHECKS_ENV]
  const quiet = process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING
  process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING = 'true'
  // one file per suite (no lane, runner/run/targets/lanes.ts): each check is collected from its own suite file
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
    const { testModules, unhandledErrors } = await vitest.collect(
      files.map((f) => relative(PROJECT_ROOT, resolve(process.cwd(), f))),
    )
    const broken = testModules.flatMap((m) =>
      m.errors().map((e) => `${relative(PROJECT_ROOT, m.moduleId)}: ${e.message}`),
    )
    if (unhandledErrors.length > 0 || broken.length > 0) {
      throw new Error(
        `the suites could not be ` +
          `collected: ${[...broken, ...unhandledErrors.map((e) => (e as Error).message)].join('; ')}`,
      )
    }
    return read([...testModules])
  } finally {
    await vitest.close()
    if (saved !== undefined) process.env[SELECTED_CHECKS_ENV] = saved
    else delete process.env[SELECTED_CHECKS_ENV]
    if (quiet === undefined) delete process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING
    if (lanes === undefined) delete process.env.CONFORMANCE_LANES
    else process.env.CONFORMANCE_LANES = lanes
  }
}
