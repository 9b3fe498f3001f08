import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT, userCacheDir } from '../../../common/project-root'

/** What the catalogue is collected from: the suites, what they import, their data, and the config that finds them. */
export const CATALOGUE_SOURCES = [
  'suites',
  'helpers',
  'common',
  'fixtures',
  'runner/run/selection',
  'vitest.config.ts',
  'package.json',
]

function files(root: string, path: string): string[] {
  const st = statSync(join(root, path), { throwIfNoEntry: false })
  if (!st) return []
  if (st.isFile()) return [path]
  // the areas' static metadata (suites/<area>/checks.json) is written from the collection, never read by it
  return readdirSync(join(root, path))
    .sort()
    .filter((name) => name !== 'checks.json')
    .flatMap((name) => files(root, join(path, name)))
}

/**
 * The key of a catalogue: a hash of the contents of its sources and of what it was collected for (the target's
 * configuration, which decides the per-product checks, and the files). A changed file gives another key. Hashing
 * the ~170 source files takes milliseconds; collecting them with vitest takes seconds.
 */
export function catalogueKey(input: unknown, root: string = PROJECT_ROOT): string {
  const h = createHash('sha256')
  // the run id and the seed of generated data change every run and name no check
  h.update(JSON.stringify(input, (k, v: unknown) => (k === 'runId' || k === 'seed' ? undefined : v)) ?? '')
  for (const f of CATALOGUE_SOURCES.flatMap((p) => files(root, p)))
    h.update(`\0${f}\0`).update(readFileSync(join(root, f)))
  return h.digest('hex').slice(0, 24)
}

/** Where catalogues are kept: the user's cache folder (never inside node_modules), one file per key. */
export function catalogueCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(userCacheDir(env), 'catalogue')
}

/** The catalogue cached under `key`, or undefined (none, or unreadable: it is collected again). */
export function readCachedCatalogue<T>(key: string, dir: string = catalogueCacheDir()): T[] | undefined {
  try {
    const v = JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8')) as unknown
    return Array.isArray(v) ? (v as T[]) : undefined
  } catch {
    return undefined
  }
}

const KEEP = 16

/** Keeps a catalogue under `key` (written to a temporary name, then renamed: a reader never sees half of it). */
export function writeCachedCatalogue(
  key: string,
  entries: readonly unknown[],
  dir: string = catalogueCacheDir(),
): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const tmp = join(dir, `${key}.${process.pid}.tmp`)
    writeFileSync(tmp, JSON.stringify(entries))
    renameSync(tmp, join(dir, `${key}.json`))
    // the newest KEEP catalogues are kept (one per version of the sources and profile in use)
    const old = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t)
      .slice(KEEP)
    for (const { f } of old) rmSync(join(dir, f), { force: true })
  } catch {
    // a cache that cannot be written costs time, never a result
  }
}
