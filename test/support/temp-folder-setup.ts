import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'

/**
 * Global setup of `npm test` (vitest.test.config.ts): the tests, their workers and every process they start get a
 * private temp folder (TMPDIR, which os.tmpdir() reads); whatever is left in it when the run ends fails the run
 * (exit code 1), named, and is removed. A private folder, not the shared one: other programs on the machine write
 * there too. Two entries are expected, both a library's own:
 * - tsx's cache of transformed files (tsx-<uid>), which the child processes the tests start share with every other run
 *   through a link to the shared temp folder's cache;
 * - testcontainers' lock file (testcontainers-node-<uid>.lock), which it makes to start a container (the container
 *   proofs) and never removes; it goes with the private folder.
 * `npm test` and `npm run test:proofs` both use it.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR
  const shared = tmpdir()
  const dir = mkdtempSync(join(shared, 'lc-npm-test-'))
  const uid = userInfo().uid
  const tsxCache = `tsx-${uid}`
  mkdirSync(join(shared, tsxCache), { recursive: true, mode: 0o700 })
  symlinkSync(join(shared, tsxCache), join(dir, tsxCache))
  process.env.TMPDIR = dir
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    const libraries = new Set([tsxCache, `testcontainers-node-${uid}.lock`])
    const left = readdirSync(dir).filter((e) => !libraries.has(e))
    rmSync(join(dir, tsxCache))
    rmSync(dir, { recursive: true, force: true })
    if (left.length === 0) return
    // vitest reports an error thrown here but still exits 0: the exit code is set here
    process.exitCode = 1
    process.stderr.write(
      `\nFAIL temp folder: the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder ` +
        `(removed now; a test must remove what it makes, test/support/temp-dir.ts): ${left.sort().join(', ')}\n`,
    )
  }
}
