import { spawn } from 'node:child_process'
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { dependencyFile } from '../common/project-root'
import { PROJECT_ROOT } from '../helpers/client/config/target-config'
import { reportsDir } from '../helpers/client/evidence/paths'
import type { RunInfo } from '../runner/reporting/run-info'
import { readVerdictFile, writeStoppedRun } from '../runner/reporting/run-reports'
import { EXIT } from '../runner/verdict'

const USAGE = `Usage: npm run conformance:sharded -- [--shards N] [--only I | --merge-only] [suite files or folders...]
  The local equivalent of the nightly CI: N vitest shards in parallel (--shard i/N --reporter=blob), each
  against its own embedded reference (or the configured target), then one vitest --merge-reports that writes
  the usual reports (console summary, junit.xml, allure-results/, checks.json, conformance.md/.html) into
  $REPORTS_DIR (default reports/). Shards share one run id and seed (set CONFORMANCE_RUN_ID and CONFORMANCE_SEED
  when shards run on different machines). Work files: <reports>/shards/.
  --only I       run shard I of N only (a CI matrix job), leaving <reports>/shards/{blobs,shard-I}; exit 0 when the
                 shard ran (its checks' outcome is the merge's to say), else 2 (configuration) or 3 (could not run)
  --thorough     the slow probes too, as run --thorough (LEDGER_THOROUGH=1): in the shard holding suites/auth, a
                 token past exp + auth.maxExpiryLeewaySeconds, in the background
  --merge-only   merge the shards found in <reports>/shards/ (a CI job after downloading the shard artifacts)
  The merged verdict is INCONCLUSIVE when a shard could not run (its cause in the summary), unless a requirement
  failed in another shard. Exit codes: 0 CONFORMS, 1 DOES NOT CONFORM, 2 usage or configuration, 3 INCONCLUSIVE.`

const VITEST = dependencyFile('vitest', 'vitest.mjs')

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
    parsed = parseArgs({ options: { shards: { type: 'string' }, only: { type: 'string' }, 'merge-only': { type: 'boolean' }, thorough: { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true })
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
  if (parsed.values.thorough) process.env.LEDGER_THOROUGH = '1' // every shard's environment is this one's
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
      const env = { ...process.env, REPORTS_DIR: join(work, `shard-${i}`), CONFORMANCE_RUN_ID: runId, CONFORMANCE_SEED: seed, FORCE_COLOR: '0', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' }
      const args = ['run', '--config', 'vitest.config.ts', `--shard=${i}/${n}`, '--reporter=blob', `--outputFile.blob=${join(blobs, `blob-${i}-${n}.json`)}`, ...files]
      return run(args, env, join(work, `shard-${i}.log`))
    }),
  )
  codes.forEach((c, k) => process.stdout.write(`  shard ${indexes[k]}/${n}: exit ${c} (log ${relative(process.cwd(), join(work, `shard-${indexes[k]}.log`))})\n`))
  const stops = indexes.map((i) => ({ i, stop: shardStop(work, blobs, i, n) })).filter((x) => x.stop)
  for (const { i, stop } of stops) {
    process.stderr.write(`shard ${i}/${n} could not run: ${stop!.cause}\n  its log ends with:\n${tail(join(work, `shard-${i}.log`))}\n`)
  }
  // a single shard of a CI matrix: a shard that ran leaves its checks' outcome to the merge job; one that could not run
  // fails its job (2: configuration, 3: it could not test)
  if (only !== undefined) process.exit(stops[0] ? (stops[0].stop!.kind === 'configuration' ? EXIT.usage : EXIT.inconclusive) : EXIT.conforms)
  await merge(dir, work, blobs, n)
}

function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').slice(-2000) : '(no log)'
}

/** Why shard i could not run, when it could not: its global setup's stop (run.json), or no blob report at all. */
function shardStop(work: string, blobs: string, i: number, n: number): { kind: string; cause: string } | undefined {
  const runJson = join(work, `shard-${i}`, 'run.json')
  const info = existsSync(runJson) ? (JSON.parse(readFileSync(runJson, 'utf8')) as RunInfo) : undefined
  if (info?.stop) return { kind: info.stop.kind, cause: info.stop.cause }
  if (!existsSync(join(blobs, `blob-${i}-${n}.json`))) return { kind: 'inconclusive', cause: 'it wrote no blob report (the shard did not finish, or its artifact is missing)' }
  return undefined
}

async function merge(dir: string, work: string, blobs: string, n: number): Promise<void> {
  const shardStops: string[] = []
  for (let i = 1; i <= n; i++) {
    const stop = shardStop(work, blobs, i, n)
    if (!stop) continue
    shardStops.push(`shard ${i}/${n} could not run: ${stop.cause}`)
    // a stopped shard's blob holds only its setup error, which vitest cannot merge: it is set aside, its cause kept
    const blob = join(blobs, `blob-${i}-${n}.json`)
    if (existsSync(blob)) {
      mkdirSync(join(work, 'stopped'), { recursive: true })
      renameSync(blob, join(work, 'stopped', `blob-${i}-${n}.json`))
    }
  }
  const present = Array.from({ length: n }, (_, k) => k + 1).filter((i) => existsSync(join(blobs, `blob-${i}-${n}.json`)))

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
  const base = infos.find((r) => !r.stop) ?? infos[0]
  const runId = base?.runId ?? process.env.CONFORMANCE_RUN_ID ?? `run-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`
  for (const f of ['checks.json', 'verdict.json', 'junit.xml', 'conformance.md', 'conformance.html']) rmSync(join(dir, f), { force: true })
  if (present.length === 0 || !base) {
    // nothing to merge: the merged report is this run's INCONCLUSIVE, with every shard's cause
    const cause = shardStops.join('; ') || `no shard report in ${blobs}`
    const info: RunInfo = base ?? { runId, seed: 0, profile: process.env.TARGET_PROFILE ?? 'reference', embedded: !process.env.SALES_BASE_URL, tenant: process.env.TENANT ?? '', user: '', salesBaseUrl: process.env.SALES_BASE_URL ?? '', webhookBaseUrl: '', authUrl: '', defects: [], startedAt: new Date().toISOString() }
    const { stop: _stop, ...rest } = info
    const r = writeStoppedRun(dir, rest, { kind: 'inconclusive', cause })
    process.stderr.write(`verdict  ${r.label}\n`)
    process.exit(EXIT.inconclusive)
  }
  const { stop: _stop, ...merged } = base
  const startedAt = infos.map((r) => r.startedAt).sort()[0]!
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify({ ...merged, startedAt, shards: n, ...(shardStops.length ? { shardStops } : {}) }, null, 2)}\n`)

  // 3. one merged report, written by the same reporters as an unsharded run; its verdict is the exit code
  const code = await run(['--config', 'vitest.config.ts', `--merge-reports=${blobs}`], { ...process.env, REPORTS_DIR: dir, CONFORMANCE_RUN_ID: runId, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' })
  const verdict = readVerdictFile(dir)
  process.exit(verdict && verdict.runId === runId ? verdict.exitCode : code === 0 ? EXIT.inconclusive : (code ?? EXIT.inconclusive))
}

void main()
