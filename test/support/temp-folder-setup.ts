import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Global setup of `npm test` (vitest.test.config.ts): the tests, their workers and every process they start get a
 * private temp folder (TMPDIR, which os.tmpdir() reads); whatever is left in it when the run ends fails the run,
 * named, and is removed (exit code 1). A private folder, not the shared one: other programs on the machine write there too.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR
  const dir = mkdtempSync(join(tmpdir(), 'lc-npm-test-'))
  process.env.TMPDIR = dir
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    const left = readdirSync(dir)
    rmSync(dir, { recursive: true, force: true })
    if (left.length === 0) return
    // vitest reports an error thrown here but still exits 0: the exit code is set here
    process.exitCode = 1
    process.stderr.write(`\nFAIL temp folder: the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder (removed now; a test must remove what it makes, test/support/temp-dir.ts): ${left.sort().join(', ')}\n`)
  }
}
