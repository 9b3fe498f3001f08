import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { listFiles } from '../../../common/fs/list-files'

/**
 * A single-target run executes its suites side by side in ONE vitest worker, from one generated entry file (a lane):
 * the suites share one module graph (imported and compiled once, not once per worker) and wait on the target
 * together instead of one file after another (docs/reliability.md#speed). vitest runs the files of a worker one at a
 * time, so the suites are blocks of one file: `.lanes/<selection>/<first filter>/lane.test.ts`, one block per suite
 * (helpers/checks/targets/lane.ts), each block named by and carrying its suite file; the reporters give each check its
 * suite
 * file back (checks.json, JUnit, Allure).
 *
 * vitest's own file filters still apply to the lane's path: the lane of a filtered run holds the suites that match
 * the filters (vitest's rule: the project-relative path contains the filter) and is written under a folder named
 * by the first filter, so that vitest keeps it.
 */
export const LANES_DIR = '.lanes'
const LANE_FILE = 'lane.test.ts'
const BLOCK = /^suiteBlock\('([^']+)'/gm
const USED_MARK = '.last-used'
const STALE_MS = 24 * 3600 * 1000

const posix = (p: string) => p.split('\\').join('/')

/** The suites (project-relative) a vitest file filter selects, by vitest's rule (case-insensitive "path contains"). */
export function suitesMatching(root: string, suites: string[], filters: string[]): string[] {
  if (filters.length === 0) return suites
  return suites.filter((s) => {
    const file = s.toLowerCase()
    return filters.some((f) => {
      const abs = isAbsolute(f) ? posix(relative(root, f)) : undefined
      const rel = posix(f.endsWith('/') ? `${relative(root, resolve(root, f))}/` : relative(root, resolve(root, f)))
      return (
        (abs !== undefined && (file === abs.toLowerCase() || file.startsWith(`${abs.toLowerCase()}/`))) ||
        file.includes(f.toLowerCase()) ||
        file.includes(rel.toLowerCase())
      )
    })
  })
}

/**
 * The folder part that makes vitest keep a lane under `filter`: the filter itself when it is a plain relative path
 * fragment (letters, digits, / . _ -), else undefined (the run then falls back to one file per suite).
 */
function filterFolder(root: string, filter: string): string | undefined {
  const f = isAbsolute(filter) ? posix(relative(root, filter)) : posix(filter)
  const trimmed = f.replace(/^\.\/+/, '').replace(/\/+$/, '')
  if (
    trimmed === '' ||
    !/^[A-Za-z0-9_./-]+$/.test(trimmed) ||
    trimmed.split('/').some((p) => p === '..' || p === '.' || p === '')
  )
    return undefined
  return trimmed
}

function laneSource(root: string, lane: string, suites: string[]): string {
  const helper = posix(relative(dirname(lane), join(root, 'helpers/checks/targets/lane')))
  const lines = suites.map(
    (s) => `suiteBlock('${s}', () => import('${posix(relative(dirname(lane), join(root, s)))}'))`,
  )
  return [
    `// Generated for a single-target run (runner/run/targets/lanes.ts): ${suites.length} suite(s) side by side in ` +
      `one worker.`,
    `import { runSuitesSideBySide, suiteBlock } from '${helper}'`,
    '',
    'runSuitesSideBySide()',
    ...lines,
    '',
  ].join('\n')
}

/** Removes lanes not used for a day (each selection of suites leaves one). */
function pruneStale(dir: string, keep: string, now: number): void {
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (name === keep) continue
    const mark = join(dir, name, USED_MARK)
    const used = existsSync(mark) ? statSync(mark).mtimeMs : statSync(join(dir, name)).mtimeMs
    if (now - used > STALE_MS) rmSync(join(dir, name), { recursive: true, force: true })
  }
}

/**
 * Writes (or keeps) the lane of the suites under root/suites that `filters` select, and returns the include glob;
 * undefined when the filters cannot name a lane (the caller runs one file per suite then). An unchanged lane is not
 * rewritten; a changed one is written to a temporary file and renamed, so a run starting at the same moment never
 * reads half a file.
 */
export function writeLane(root: string, filters: string[], now = Date.now()): string[] | undefined {
  const all = existsSync(join(root, 'suites'))
    ? listFiles(join(root, 'suites'), '.test.ts')
        .map((f) => posix(relative(root, f)))
        .sort()
    : []
  const suites = suitesMatching(root, all, filters)
  if (suites.length === 0) return undefined
  const folder = filters.length === 0 ? 'all' : filterFolder(root, filters[0]!)
  if (folder === undefined) return undefined
  const selection = createHash('sha256')
    .update(`${folder}\n${suites.join('\n')}`)
    .digest('hex')
    .slice(0, 12)
  const base = join(root, LANES_DIR, selection)
  pruneStale(join(root, LANES_DIR), selection, now)
  const lane = join(base, folder, LANE_FILE)
  const source = laneSource(root, lane, suites)
  if (!existsSync(lane) || readFileSync(lane, 'utf8') !== source) {
    mkdirSync(dirname(lane), { recursive: true })
    const tmp = `${lane}.${process.pid}.tmp`
    writeFileSync(tmp, source)
    renameSync(tmp, lane)
  }
  writeFileSync(join(base, USED_MARK), '')
  utimesSync(join(base, USED_MARK), now / 1000, now / 1000)
  return [posix(relative(root, lane))]
}

/** Whether a test file is a generated lane. */
export function isLane(file: string): boolean {
  return /(?:^|[\\/])\.lanes[\\/]/.test(file) && file.endsWith(LANE_FILE)
}

/** The suite files (project-relative) a lane runs, read from the lane itself. */
export function suitesOfLane(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(BLOCK)].map((m) => m[1]!)
}
