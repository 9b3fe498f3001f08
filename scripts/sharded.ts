import { spawn } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { PROJECT_ROOT } from '../common/project-root'
import { reportsDir } from '../common/report-paths'
import { mergeShards, shardStop } from '../runner/commands/merge/merge'
import { readShardInfo } from '../runner/run/shard'
import { dependencyFile } from '../common/project-root'
import type { RunInfo } from '../runner/run/results/run-info'
import { readVerdictFile, writeStoppedRun } from '../runner/run/results/run-reports'
import { EXIT } from '../runner/run/verdict'
import { newRunId } from '../common/run-id'

const USAGE =
  `Usage: npm run conformance:sharded -- [--shards N] [--only I | --merge-only] [--thorough] [suite ` +
  `files or folders...]
  A development harness: the nightly CI's shard-and-merge on one machine, with the installed CLI's own commands.
  N shards in parallel, each \`ledger-conformance run --shard i/N --reports <reports>/shards/shard-i\` against its own
  embedded reference (or the configured target), then \`ledger-conformance merge\` of their folders into $REPORTS_DIR
  (default reports/): the usual reports with one verdict. The shards share one run id (CONFORMANCE_RUN_ID, generated
  when unset) and so one seed. Shard logs: <reports>/shards/shard-i.log.
  --only I       run shard I of N only, leaving <reports>/shards/shard-I; its exit code is its share's verdict
  --merge-only   merge <reports>/shards/shard-1..N (refused, exit 2, when one is missing)
  --thorough     the slow probes too, as run --thorough
  Exit codes: 0 CONFORMS, 1 DOES NOT CONFORM, 2 usage or configuration, 3 INCONCLUSIVE.`

const CLI = resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs')

function shard(
  i: number,
  n: number,
  dir: string,
  files: string[],
  thorough: boolean,
  env: NodeJS.ProcessEnv,
  log: string,
): Promise<number | null> {
  const args = [CLI, 'run', '--shard', `${i}/${n}`, '--reports', dir, ...(thorough ? ['--thorough'] : []), ...files]
  const child = spawn(process.execPath, args, { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] })
  const out = createWriteStream(log)
  child.stdout.pipe(out)
  child.stderr.pipe(out)
  return new Promise((r) => child.on('close', (code) => r(code)))
}

async function main(): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      options: {
        shards: { type: 'string' },
        only: { type: 'string' },
        'merge-only': { type: 'boolean' },
        thorough: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      allowPositionals: true,
    })
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`)
    return 2
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const n = Number(parsed.values.shards ?? '2')
  if (!Number.isInteger(n) || n < 1 || n > 16) {
    process.stderr.write(`--shards: expected an integer from 1 to 16\n${USAGE}\n`)
    return 2
  }
  const only = parsed.values.only === undefined ? undefined : Number(parsed.values.only)
  if (only !== undefined && !(Number.isInteger(only) && only >= 1 && only <= n)) {
    process.stderr.write(`--only: expected an integer from 1 to ${n}\n${USAGE}\n`)
    return 2
  }
  const dir = reportsDir()
  const work = join(dir, 'shards')
  const dirs = Array.from({ length: n }, (_, k) => join(work, `shard-${k + 1}`))
  if (parsed.values['merge-only']) return mergeShards(dirs, dir)
  if (only === undefined) rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  const runId = process.env.CONFORMANCE_RUN_ID ?? newRunId()
  const env: NodeJS.ProcessEnv = { ...process.env, CONFORMANCE_RUN_ID: runId, FORCE_COLOR: '0' }
  delete env.REPORTS_DIR
  const files = parsed.positionals
  process.stdout.write(`sharded run ${runId}: ${n} shard(s)${files.length ? ` of ${files.join(' ')}` : ''}\n`)
  const indexes = only !== undefined ? [only] : Array.from({ length: n }, (_, k) => k + 1)
  const codes = await Promise.all(
    indexes.map((i) =>
      shard(i, n, dirs[i - 1]!, files, parsed.values.thorough === true, env, join(work, `shard-${i}.log`)),
    ),
  )
  codes.forEach((c, k) =>
    process.stdout.write(
      `  shard ${indexes[k]}/${n}: exit ${c} (log ${relative(process.cwd(), join(work, `shard-${indexes[k]}.log`))})\n`,
    ),
  )
  for (const i of indexes) {
    const info = readShardInfo(dirs[i - 1]!)
    const stop = info ? shardStop(dirs[i - 1]!, info) : { cause: 'it wrote no shard.json (see its log)' }
    if (stop) {
      const log = join(work, `shard-${i}.log`)
      process.stderr.write(
        `shard ${i}/${n} could not run: ${stop.cause}\n  its log ends ` +
          `with:\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '(no log)'}\n`,
      )
    }
  }
  if (only !== undefined) return codes[0] ?? 3
  return mergeShards(dirs, dir)
}

main().then((code) => process.exit(code))
