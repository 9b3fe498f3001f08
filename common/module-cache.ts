import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The lock files vitest's module cache checks, each relative to a folder (vitest 4, getLockfileHash). */
const LOCKFILES = [
  'node_modules/.package-lock.json',
  'node_modules/.yarn-state.yml',
  '.pnp.cjs',
  '.pnp.js',
  'node_modules/.yarn-integrity',
  'node_modules/.pnpm/lock.yaml',
  '.rush/temp/shrinkwrap-deps.json',
  'bun.lock',
  'bun.lockb',
]
/** Patch folders whose change vitest counts as a lock file's. */
const PATCHES = ['patches', '.yarn/patches']

const stat = (path: string) => {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/**
 * A name for the state of the dependencies that run from `root`: the lock files in the first folder up from `root` that
 * holds one (where vitest looks), and the mtimes of its patch folders, hashed; `none` without a lock file.
 */
export function lockfileKey(root: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    const found = LOCKFILES.map((f) => join(dir, f)).filter((p) => stat(p)?.isFile())
    if (found.length > 0) {
      const h = createHash('sha256')
      for (const p of found) h.update(p).update('\0').update(readFileSync(p)).update('\0')
      for (const p of PATCHES) h.update(String(stat(join(dir, p))?.mtimeMs ?? '')).update('\0')
      return h.digest('hex').slice(0, 12)
    }
    if (dirname(dir) === dir) return 'none'
  }
}

/**
 * Where vitest keeps the transformed modules: a folder of `base` per state of the dependencies (lockfileKey).
 * vitest clears its module cache when the lock file has changed since the cache was written, but keeps writing into
 * the folder it removed, so the first run after an install or an upgrade failed (ENOENT on the cache's temporary
 * file) before any check ran. In a folder of its own per lock file, the cache never sees the lock file change.
 */
export function moduleCachePath(base: string, root: string, cwd: string = process.cwd()): string {
  // vitest looks from its root, which is the folder it was started in: the project's, or another
  return join(base, cwd === root ? lockfileKey(root) : `${lockfileKey(root)}-${lockfileKey(cwd)}`)
}
