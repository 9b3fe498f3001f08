import { spawn } from 'node:child_process'
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { PROJECT_ROOT } from '../helpers/config'
import { reportsDir } from '../helpers/reporting/paths'
import type { RunInfo } from '../runner/reporting/run-info'

const USAGE = `Usage: npm run conformance:sharded -- [--shards N] [--only I | --merge-only] [suite files or folders...]
  The local equivalent of the nightly CI: N vitest shards in parallel (--shard i/N --reporter=blob), each
  against its own embedded reference (or the configured target), then one vitest --merge-reports that writes
  the usual reports (console summary, junit.xml, allure-results/, checks.json, conformance.md/.html) into
  $REPORTS_DIR (default reports/). Shards share one run id and seed (set CONFORMANCE_RUN_ID and CONFORMANCE_SEED
  when shards run on different machines). Work files: <reports>/shards/.
  --only I       run shard I of N only (a CI matrix job), leaving <reports>/shards/{blobs,shard-I}
  --merge-only   merge the shards found in <reports>/shards/ (a CI job after downloading the shard artifacts)`

const VITEST = resolve(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs')

function run(args: string[], env: NodeJS.ProcessEnv, log?: string): Promise<number | null> {
  const child = spawn(process.execPath, [VITEST, ...args], { cwd: PROJECT_ROOT, env, stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
  if (log) {
    const out = createWriteStream(log)
    child.stdout?.pipe(out)
    child.stderr?.pipe(out)
  }
  return new Promise((r) => child.on('close', (code) => r(code)))
}

async function main(): Promise<void> {
  let parsed
  try {
    parsed = parseArgs({ options: { shards: { type: 'string' }, only: { type: 'string' }, 'merge-only': { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true })
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`)
    process.exit(2)
  }
  if (parsed.values.help) return void process.stdout.write(`${USAGE}\n`)
  const n = Number(parsed.values.shards ?? '2')
  if (!Number.isInteger(n) || n < 1 || n > 16) {
    process.stderr.write(`--shards: expected an integer from 1 to 16\n${USAGE}\n`)
    process.exit(2)
  }
  const only = parsed.values.only === undefined ? undefined : Number(parsed.values.only)
  if (only !== undefined && !(Number.isInteger(only) && only >= 1 && only <= n)) {
    process.stderr.write(`--only: expected an integer from 1 to ${n}\n${USAGE}\n`)
    process.exit(2)
  }
  const mergeOnly = parsed.values['merge-only'] === true
  const files = parsed.positionals
  const dir = reportsDir()
  const work = join(dir, 'shards')
  const blobs = join(work, 'blobs')
  if (!mergeOnly && only === undefined) rmSync(work, { recursive: true, force: true })
  mkdirSync(blobs, { recursive: true })
  if (mergeOnly) return merge(dir, work, blobs, n)
  const runId = process.env.CONFORMANCE_RUN_ID ?? `run-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`
  const seed = process.env.CONFORMANCE_SEED ?? String(Math.floor(Math.random() * 2 ** 31))
  process.stdout.write(`sharded run ${runId}, seed ${seed}: ${n} shard(s)${files.length ? ` of ${files.join(' ')}` : ''}\n`)

  // 1. the shards, in parallel; each writes a blob, its traffic and its run.json in its own folder
  const indexes = only !== undefined ? [only] : Array.from({ length: n }, (_, k) => k + 1)
  const codes = await Promise.all(
    indexes.map((i) => {
      const env = { ...process.env, REPORTS_DIR: join(work, `shard-${i}`), CONFORMANCE_RUN_ID: runId, CONFORMANCE_SEED: seed, FORCE_COLOR: '0' }
      const args = ['run', '--config', 'vitest.config.ts', `--shard=${i}/${n}`, '--reporter=blob', `--outputFile.blob=${join(blobs, `blob-${i}-${n}.json`)}`, ...files]
      return run(args, env, join(work, `shard-${i}.log`))
    }),
  )
  codes.forEach((c, k) => process.stdout.write(`  shard ${indexes[k]}/${n}: exit ${c} (log ${relative(process.cwd(), join(work, `shard-${indexes[k]}.log`))})\n`))
  const missing = indexes.filter((i) => !existsSync(join(blobs, `blob-${i}-${n}.json`)))
  if (missing.length > 0) {
    for (const i of missing) process.stderr.write(`shard ${i} wrote no blob report; its log ends with:\n${readFileSync(join(work, `shard-${i}.log`), 'utf8').slice(-2000)}\n`)
    process.exit(1)
  }
  // a single shard of a CI matrix: its exit code is its tests' outcome; the merge job reports
  if (only !== undefined) process.exit(codes[0] === 0 || codes[0] === 1 ? 0 : (codes[0] ?? 1))
  await merge(dir, work, blobs, n)
}

async function merge(dir: string, work: string, blobs: string, n: number): Promise<void> {
  const expected = Array.from({ length: n }, (_, k) => `blob-${k + 1}-${n}.json`)
  const absent = expected.filter((b) => !existsSync(join(blobs, b)))
  if (absent.length > 0) {
    process.stderr.write(`cannot merge: missing ${absent.join(', ')} in ${blobs}\n`)
    process.exit(1)
  }

  // 2. the measured traffic and the run info of all shards, where the merged reporters read them
  rmSync(join(dir, 'traffic'), { recursive: true, force: true })
  mkdirSync(join(dir, 'traffic'), { recursive: true })
  const infos: RunInfo[] = []
  for (let i = 1; i <= n; i++) {
    const shardDir = join(work, `shard-${i}`)
    const t = join(shardDir, 'traffic')
    if (existsSync(t)) for (const f of readdirSync(t)) copyFileSync(join(t, f), join(dir, 'traffic', `shard-${i}-${f}`))
    if (existsSync(join(shardDir, 'run.json'))) infos.push(JSON.parse(readFileSync(join(shardDir, 'run.json'), 'utf8')) as RunInfo)
  }
  if (infos.length > 0) {
    const startedAt = infos.map((r) => r.startedAt).sort()[0]!
    writeFileSync(join(dir, 'run.json'), `${JSON.stringify({ ...infos[0]!, startedAt, shards: n }, null, 2)}\n`)
  }

  // 3. one merged report, written by the same reporters as an unsharded run
  const code = await run(['--config', 'vitest.config.ts', `--merge-reports=${blobs}`], { ...process.env, REPORTS_DIR: dir })
  process.exit(code ?? 1)
}

void main()
