import { spawn } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { conformanceConfigArgs, dependencyFile, PROJECT_ROOT } from '../../../common/project-root'
import { CALLER_CWD_ENV, callerPath } from '../../../common/report-paths'
import type { RunInfo } from '../../run/results/run-info'
import { clearRunReports } from '../../run/results/results'
import { readVerdictFile, writeStoppedRun } from '../../run/results/run-reports'
import {
  CATALOGUE_SIZE_ENV,
  SELECTED_CHECKS_ENV,
  SELECTION_ENV,
  STRICT_ENV,
  VITEST_FILTER_ENV,
} from '../../run/selection/env'
import { RUN_PLAN_ENV, writeRunPlan } from '../../../common/run-plan'
import { SHARD_BLOB_ENV } from '../../run/shard'
import { colourEnv } from '../colour'
import { EXIT } from '../../run/verdict'
import { blobName, readShardInfo, shardProblems, type ShardInfo } from '../../run/shard'

/** Why shard `info` (reports in `dir`) could not run, when it could not: its global setup's stop, or no blob report. */
export function shardStop(dir: string, info: ShardInfo): { kind: string; cause: string } | undefined {
  const runJson = join(dir, 'run.json')
  const run = existsSync(runJson) ? (JSON.parse(readFileSync(runJson, 'utf8')) as RunInfo) : undefined
  if (run?.runId === info.runId && run.stop) return { kind: run.stop.kind, cause: run.stop.cause }
  if (!existsSync(join(dir, blobName(info))))
    return {
      kind: 'inconclusive',
      cause: 'it wrote no blob report (the shard did not finish, or its artifact is missing)',
    }
  return undefined
}

/** `vitest --merge-reports` with the project's config and reporters; resolves to its exit code. */
function mergeReports(blobs: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  const child = spawn(
    process.execPath,
    [dependencyFile('vitest', 'vitest.mjs'), ...conformanceConfigArgs(), `--merge-reports=${blobs}`],
    { cwd: PROJECT_ROOT, env, stdio: 'inherit' },
  )
  return new Promise((done) => child.on('close', (code) => done(code)))
}

/**
 * ledger-conformance merge: the reports folders of the shards of one run (`run --shard i/n`) merged into one run's
 * reports in `out` (checks.json, verdict.json, conformance.md/.html, junit.xml, allure-results, traffic), written by
 * the same reporters as an unsharded run, with one verdict over the whole selection. Refused (exit 2, nothing
 * written) when a folder is not a shard's, a shard is missing or given twice, or the shards are of different runs or
 * targets. A shard that ran but could not test (its run stopped, or left no blob) makes the merge INCONCLUSIVE with
 * its cause, unless a requirement failed in another shard. Resolves to the merged verdict's exit code.
 */
export async function mergeShards(dirs: string[], out: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const shards = dirs
    .map((d) => resolve(d))
    .map((dir) => ({ dir, info: existsSync(dir) ? readShardInfo(dir) : undefined }))
  const problems = [
    ...shards.filter((s) => !existsSync(s.dir)).map((s) => `${callerPath(s.dir)}: no such folder`),
    ...shards
      .filter((s) => s.dir === out)
      .map(
        (s) =>
          `${callerPath(s.dir)} is both a shard's folder and the merged reports folder: give --reports another folder`,
      ),
  ]
  if (problems.length === 0) problems.push(...shardProblems(shards.map((s) => ({ ...s, dir: callerPath(s.dir) }))))
  if (problems.length) {
    process.stderr.write(
      `ledger-conformance merge: cannot merge, nothing was written:\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
    )
    return EXIT.usage
  }
  const parts = shards.map((s) => ({ dir: s.dir, info: s.info! })).sort((a, b) => a.info.index - b.info.index)
  const first = parts[0]!.info
  const n = first.count
  process.stdout.write(`merging run ${first.runId}: ${n} shard(s) into ${callerPath(out)}\n`)

  const shardStops: string[] = []
  const work = mkdtempSync(join(tmpdir(), 'lc-merge-'))
  try {
    // a stopped shard's blob holds only its setup error, which vitest cannot merge: it is left out, its cause kept
    for (const { dir, info } of parts) {
      const stop = shardStop(dir, info)
      if (stop) shardStops.push(`shard ${info.index}/${n} could not run: ${stop.cause}`)
      else copyFileSync(join(dir, blobName(info)), join(work, blobName(info)))
    }
    for (const s of shardStops) process.stderr.write(`${s}\n`)
    mkdirSync(out, { recursive: true })
    clearRunReports(out)
    // the measured traffic and the run info of all shards, where the merged reporters read them
    rmSync(join(out, 'traffic'), { recursive: true, force: true })
    mkdirSync(join(out, 'traffic'), { recursive: true })
    const infos: RunInfo[] = []
    for (const { dir, info } of parts) {
      const t = join(dir, 'traffic')
      if (existsSync(t))
        for (const f of readdirSync(t)) copyFileSync(join(t, f), join(out, 'traffic', `shard-${info.index}-${f}`))
      if (existsSync(join(dir, 'run.json')))
        infos.push(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunInfo)
    }
    const base = infos.find((r) => !r.stop && r.runId === first.runId) ?? infos[0]
    if (readdirSync(work).length === 0 || !base) {
      // nothing to merge: the merged report is this run's INCONCLUSIVE, with every shard's cause
      const info: RunInfo = base ?? {
        runId: first.runId,
        seed: Number(first.seed) || 0,
        profile: first.scope.profile,
        embedded: !first.scope.salesBaseUrl,
        tenant: first.scope.tenant,
        user: '',
        salesBaseUrl: first.scope.salesBaseUrl,
        webhookBaseUrl: '',
        authUrl: '',
        defects: [],
        startedAt: first.startedAt,
      }
      const { stop: _stop, ...rest } = info
      const r = writeStoppedRun(
        out,
        { ...rest, runId: first.runId },
        { kind: 'inconclusive', cause: shardStops.join('; ') || 'no shard left a report' },
        first.selectionDetail,
      )
      process.stderr.write(`verdict  ${r.label}\nreports  ${callerPath(out)}\n`)
      return EXIT.inconclusive
    }
    const { stop: _stop, ...merged } = base
    const startedAt = infos.map((r) => r.startedAt).sort()[0]!
    writeFileSync(
      join(out, 'run.json'),
      `${JSON.stringify({ ...merged, runId: first.runId, startedAt, shards: n, ...(shardStops.length ? { shardStops } : {}) }, null, 2)}\n`,
    )

    // one merged report, written by the same reporters as an unsharded run; its verdict is the exit code
    // the reporters work in the project's folder (installed: under node_modules) and print paths relative to the
    // caller's
    // one run plan (common/run-plan.ts), as `run` gives its vitest: the shards' run id, seed, selection, strictness
    const plan = writeRunPlan({
      version: 1,
      runId: first.runId,
      seed: first.seed,
      reportsDir: out,
      callerCwd: env[CALLER_CWD_ENV] || process.cwd(),
      allowWrites: false,
      strict: !!first.scope.strict,
      thorough: !!first.scope.thorough,
      ...(first.selectionDetail ? { selection: first.selectionDetail } : {}),
    })
    const mergeEnv: NodeJS.ProcessEnv = { ...env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true', [RUN_PLAN_ENV]: plan }
    for (const k of [
      SELECTED_CHECKS_ENV,
      SELECTION_ENV,
      CATALOGUE_SIZE_ENV,
      VITEST_FILTER_ENV,
      STRICT_ENV,
      CALLER_CWD_ENV,
      SHARD_BLOB_ENV,
      'LEDGER_THOROUGH',
    ])
      delete mergeEnv[k]
    const code = await mergeReports(work, colourEnv(mergeEnv, process.stdout.isTTY === true))
    const verdict = readVerdictFile(out)
    if (verdict && verdict.runId === first.runId) return verdict.exitCode
    const r = writeStoppedRun(
      out,
      { ...merged, runId: first.runId, startedAt },
      {
        kind: 'inconclusive',
        cause: `the merge of the shards' reports exited ${code} before writing its report (see the output above)`,
      },
      first.selectionDetail,
    )
    process.stderr.write(`verdict  ${r.label}\n`)
    return EXIT.inconclusive
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
