import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { listFiles } from '../../../common/fs/list-files'

/**
 * A multi-target run executes every suite file once per target in one vitest process, the targets of a file
 * side by side in one worker: the checks of a target run in order, the targets concurrently, and the workers,
 * their loaded modules and their warmed-up code serve every target (docs/targets.md).
 *
 * vitest runs a file path once, so the run gets generated entry files, `.targets/<set>/suites/<path>`, one per
 * suite file. An entry declares one block per target (forTarget) that imports the suite with a `?target=<key>`
 * query: the module runner evaluates the suite again for that key while the helpers stay loaded, and the suite
 * finds its target from the enclosing block (useTarget).
 */
export const TARGETS_DIR = '.targets'

const ENTRY = /(?:^|[\\/])\.targets[\\/][^\\/]+[\\/]/

/**
 * The suite file a path stands for: ".targets/acme+globex/suites/x.test.ts" -> "suites/x.test.ts"; other paths
 * unchanged.
 */
export function suiteFileOf(file: string): string {
  const m = ENTRY.exec(file)
  return m ? file.slice(m.index + m[0].length) : file
}

/** The folder name of a set of targets: the keys joined when short, else a digest. */
export function targetSetName(keys: string[]): string {
  const joined = keys.join('+')
  if (joined.length <= 60) return joined
  return `${keys.length}-targets-${createHash('sha256').update(joined).digest('hex').slice(0, 10)}`
}

const listTests = (dir: string) => (existsSync(dir) ? listFiles(dir, '.test.ts') : [])

function posix(p: string): string {
  return p.split('\\').join('/')
}

function entrySource(root: string, entry: string, suite: string, keys: string[]): string {
  const helper = posix(relative(dirname(entry), join(root, 'helpers/checks/targets/for-target')))
  const rel = posix(relative(dirname(entry), suite))
  const name = posix(relative(root, suite))
  const lines = keys.map((k) => `forTarget('${k}', '${name}', () => import('${rel}?target=${k}'))`)
  return `// Generated for a multi-target run (runner/run/targets/entries.ts): ${name}, once per target.\nimport { forTarget } from '${helper}'\n\n${lines.join('\n')}\n`
}

const USED_MARK = '.last-used'
const STALE_MS = 24 * 3600 * 1000

/** Removes the entry folders of other sets of targets not used for a day (each set leaves one folder). */
function pruneStaleSets(dir: string, keep: string, now: number): void {
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (name === keep) continue
    const mark = join(dir, name, USED_MARK)
    const used = existsSync(mark) ? statSync(mark).mtimeMs : statSync(join(dir, name)).mtimeMs
    if (now - used > STALE_MS) rmSync(join(dir, name), { recursive: true, force: true })
  }
}

/**
 * Writes (or keeps) one entry per suite file under root/suites for this set of targets, removes entries of
 * suites that no longer exist, and returns the include glob. Files already up to date are not rewritten, so
 * runs of the same targets do not disturb each other. Sets of targets not run for a day are removed.
 */
export function writeTargetEntries(root: string, keys: string[], now = Date.now()): string[] {
  const set = targetSetName(keys)
  const base = join(root, TARGETS_DIR, set)
  pruneStaleSets(join(root, TARGETS_DIR), set, now)
  const wanted = new Set<string>()
  for (const suite of listTests(join(root, 'suites'))) {
    const entry = join(base, relative(root, suite))
    wanted.add(entry)
    const source = entrySource(root, entry, suite, keys)
    if (existsSync(entry) && readFileSync(entry, 'utf8') === source) continue
    mkdirSync(dirname(entry), { recursive: true })
    writeFileSync(entry, source)
  }
  for (const old of listTests(base)) if (!wanted.has(old)) rmSync(old, { force: true })
  mkdirSync(base, { recursive: true })
  writeFileSync(join(base, USED_MARK), '')
  utimesSync(join(base, USED_MARK), now / 1000, now / 1000)
  return [`${TARGETS_DIR}/${set}/suites/**/*.test.ts`]
}
