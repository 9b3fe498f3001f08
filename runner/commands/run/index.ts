import { envHelp } from '../../../common/env-vars'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { conformanceConfigArgs, dependencyFile, PROJECT_ROOT } from '../../../common/project-root'
import { ConfigError, loadTargetConfig, withEmbeddedOrigin } from '../../../common/config/target-config'
import type { TargetConfig } from '../../../common/config/types'
import { SELECTED_CHECKS_ENV } from '../../../common/selection'
import { containerTargetFromEnv } from '../../run/container/target-env'
import { chaosFromEnv } from '../../../reference/chaos/env'
import { DefectSet } from '../../../reference/defects/catalogue'
import { loadSuiteClasses } from '../../run/guard/suite-classes'
import { clearRunReports } from '../../run/results/results'
import { CALLER_CWD_ENV, callerPath } from '../../../common/report-paths'
import { earlyRunInfo, runInfo, type RunInfo } from '../../run/results/run-info'
import { readVerdictFile, writeStoppedRun } from '../../run/results/run-reports'
import { cachedCatalogue, collectCatalogue, type CatalogueEntry } from '../../run/selection/catalogue'
import {
  CATALOGUE_SIZE_ENV,
  SELECTION_ENV,
  STRICT_ENV,
  VITEST_FILTER_ENV,
  vitestFilterOf,
} from '../../run/selection/env'
import { hasCriteria, listLine, selectChecks, whereOf, SelectionError, type Criteria } from '../../run/selection/select'
import { loadTargets } from '../../run/targets/load'
import { EXIT, type RunStop, type Selection } from '../../run/verdict'
import {
  blobName,
  parseShard,
  SHARD_BLOB_ENV,
  SHARD_FILE,
  shardSeed,
  writeShardInfo,
  type Shard,
} from '../../run/shard'
import { EXIT_CODES_HELP, type Command } from '../command'
import { withDidYouMean } from '../did-you-mean'
import { colourEnv } from '../colour'
import { WRITE_OPTIONS, writeModeProblem, writeOptionsHelp } from '../../run/guard/write-guard'
import { newRunId } from '../../../common/run-id'
import { TIERING_FLAGS } from '../../../common/v8-tiering'
import {
  RUN_PLAN_ENV,
  runPlanVariable,
  sealTargets,
  writeRunPlan,
  type PlannedTarget,
  type RunPlan,
} from '../../../common/run-plan'

export const RUN_OPTIONS = {
  check: { type: 'string', multiple: true },
  section: { type: 'string', multiple: true },
  operation: { type: 'string', multiple: true },
  list: { type: 'boolean' },
  ...WRITE_OPTIONS,
  strict: { type: 'boolean' },
  thorough: { type: 'boolean' },
  shard: { type: 'string' },
  profile: { type: 'string' },
  reports: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The selection part of run's help; `example` is the count of --check SL-LIFE (selectionExample). */
const selectionHelp = (
  example: string,
) => `Selection (any of them; values of one option add up, different options narrow down):
  --check <id or prefix>[,...]   checks whose id is or starts with it (--check SL-LIFE, --check AUTH-LOGIN-002,WH-)
  --section "<document> §N"      every check citing that section, also "§3, §4" citations and §N.x
                                 (document: sales-service.md, webhook-subscriptions.md, or sales / webhooks)
  --operation <operationId>      checks about that operation (common/operations.json ids; docs/reports.md)
  <suite file or folder>...      checks of those suite files (suites/auth, suites/sales/lifecycle.test.ts)
  A selected lifecycle step brings the earlier steps of its lifecycle. A selection that matches no check exits 2
  with the nearest matches. A selection smaller than the catalogue is said everywhere:
  "CONFORMS (partial: ${example}; selection --check SL-LIFE)".`

const ENV_HELP = envHelp('run', { title: 'Environment variables' })

/**
 * The example of a partial verdict in run's help, counted from the catalogue ("22 of 384 checks"): the catalogue the
 * last `list` or selection collected for this profile (runner/run/selection/catalogue-cache.ts; reading it takes
 * milliseconds, collecting it seconds, too long for --help). Without one, the words say where the numbers come from.
 */
export function selectionExample(env: NodeJS.ProcessEnv = process.env): string {
  try {
    const targets = resolveTargets({ ...env, REPORTS_DIR: env.REPORTS_DIR ?? 'reports' })
    const catalogue = cachedCatalogue({ target: targets.target, targets: targets.targets })
    if (catalogue)
      return `${selectChecks(catalogue, { checks: ['SL-LIFE'] }).selected.length} of ${catalogue.length} checks`
  } catch {
    // a profile that does not load: the words below
  }
  return 'N of M checks, counted by ledger-conformance list --check SL-LIFE'
}

/** run --help, with the catalogue's numbers when they are known (selectionExample). */
export function runHelp(env: NodeJS.ProcessEnv = process.env): string {
  return `Usage: ledger-conformance run [options] [suite files or folders] [-- vitest options]
       npm run conformance -- [options]     (in a clone of the project)

Runs the conformance checks against the target and says CONFORMS, DOES NOT CONFORM or INCONCLUSIVE, with the
same verdict in the console, reports/checks.json, verdict.json, conformance.md/.html, junit.xml and Allure.

Options:
  --profile <file>   the target profile (sets TARGET_PROFILE)
  --reports <dir>    the reports folder (sets REPORTS_DIR; default ./reports)
${writeOptionsHelp('run')}
                     (the read-only suites: fixtures/suite-classes.json; what npm run smoke runs in a clone)
  --strict           a requirement of common/requirements.json that no check could judge (every one not
                     applicable or blocked) makes the run INCONCLUSIVE (docs/reports.md "Requirement coverage")
  --thorough         also the slow probes, overlapped with the rest of the run: a short-lived token taken at the
                     start is tried on both services past exp + auth.maxExpiryLeewaySeconds (default 120 s);
                     accepted there fails AUTH-TOKEN-001/002 (sets LEDGER_THOROUGH=1; docs/reports.md). Without
                     it the summary notes that expiry beyond the leeway was not probed
  --shard <i>/<n>    run shard i of n only (vitest splits the suite files): its reports say "partial: ...; vitest
                     shard i/n" and its exit code is its share's verdict; it also writes shard.json and its blob,
                     which ledger-conformance merge turns into one run's reports with one verdict (docs/ci.md
                     "Shard and merge"). Every shard needs the same CONFORMANCE_RUN_ID
  --list             print the selected checks (id  document §section  file:line  requirement) and exit; nothing is sent
  -h, --help         this help

${selectionHelp(selectionExample(env))}

${ENV_HELP}

${EXIT_CODES_HELP}`
}

export type RunArgs = {
  criteria: Criteria
  list: boolean
  allowWrites: boolean
  strict?: boolean
  thorough?: boolean
  shard?: Shard
  profile?: string
  reports?: string
  vitestArgs: string[]
}

/** The run command's arguments; a usage error throws SelectionError. */
export function parseRunArgs(argv: string[]): RunArgs {
  const cut = argv.indexOf('--')
  const own = cut < 0 ? argv : argv.slice(0, cut)
  const vitestArgs = cut < 0 ? [] : argv.slice(cut + 1)
  let parsed
  try {
    parsed = parseArgs({ args: own, options: RUN_OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    const msg = withDidYouMean((e as Error).message, RUN_OPTIONS)
    throw new SelectionError(
      /-t\b|testNamePattern/.test(own.join(' '))
        ? `${msg}; select checks with --check <id or prefix> (vitest options go after --)`
        : msg,
    )
  }
  const v = parsed.values
  const modeProblem = writeModeProblem('run', { allowWrites: v['allow-writes'], readOnly: v['read-only'] })
  if (modeProblem) throw new SelectionError(modeProblem)
  const split = (xs: string[] | undefined) =>
    (xs ?? [])
      .flatMap((x) => x.split(','))
      .map((x) => x.trim())
      .filter(Boolean)
  const criteria: Criteria = {
    ...(v.check ? { checks: split(v.check) } : {}),
    ...(v.section ? { sections: v.section.map((s) => s.trim()).filter(Boolean) } : {}),
    ...(v.operation ? { operations: split(v.operation) } : {}),
    ...(parsed.positionals.length ? { files: parsed.positionals } : {}),
    ...(v['read-only'] ? { onlyFiles: { label: '--read-only (smoke)', files: loadSuiteClasses().readOnly } } : {}),
  }
  if (v.check && !criteria.checks?.length) throw new SelectionError('--check: expected a check id or id prefix')
  let shard: Shard | undefined
  if (v.shard !== undefined) {
    try {
      shard = parseShard(v.shard)
    } catch (e) {
      throw new SelectionError((e as Error).message)
    }
    if (vitestArgs.some((a) => a === '--shard' || a.startsWith('--shard=')))
      throw new SelectionError('--shard: given twice (as an option and after --); give it once, before --')
  }
  return {
    criteria,
    list: !!v.list,
    allowWrites: !!v['allow-writes'],
    ...(v.strict ? { strict: true } : {}),
    ...(v.thorough ? { thorough: true } : {}),
    ...(shard ? { shard } : {}),
    ...(v.profile ? { profile: v.profile } : {}),
    ...(v.reports ? { reports: v.reports } : {}),
    vitestArgs,
  }
}

/**
 * The tool variables the run plan replaces: never passed on to vitest (a stale one in the caller's shell is ignored).
 */
const TOOL_VARS = [
  SELECTED_CHECKS_ENV,
  SELECTION_ENV,
  CATALOGUE_SIZE_ENV,
  VITEST_FILTER_ENV,
  STRICT_ENV,
  CALLER_CWD_ENV,
  SHARD_BLOB_ENV,
]

/** What the global setup would refuse before starting anything, said here before vitest prints a line. */
function checkRunSettings(env: NodeJS.ProcessEnv, first: TargetConfig): void {
  try {
    containerTargetFromEnv(env)
    if (first.embedded) new DefectSet(first.reference.defects)
    chaosFromEnv(env, first.embedded)
  } catch (e) {
    throw new ConfigError([(e as Error).message])
  }
}

/**
 * The run's target(s), resolved once from the profile(s) and the environment: as the catalogue sees them (an embedded
 * target gets a placeholder origin: nothing is started), and as resolved, for the run plan (`planned`), which vitest's
 * process reads instead of loading the profile again.
 */
function resolveTargets(env: NodeJS.ProcessEnv): {
  target?: TargetConfig
  targets?: Record<string, TargetConfig>
  first: TargetConfig
  planned: PlannedTarget[]
} {
  const many = loadTargets(env)
  const place = (c: TargetConfig) => (c.embedded ? withEmbeddedOrigin(c, 'http://127.0.0.1:9') : c)
  if (many && many.length > 0) {
    const targets = Object.fromEntries(many.map((t) => [t.key, place(t.config)]))
    return { targets, first: many[0]!.config, planned: many.map((t) => ({ key: t.key, config: t.config })) }
  }
  const target = loadTargetConfig(env)
  return { target: place(target), first: target, planned: [{ config: target }] }
}

function stopRun(dir: string, run: RunInfo, stop: RunStop, selection?: Selection): number {
  const report = writeStoppedRun(dir, run, stop, selection)
  const stream = report.exitCode === EXIT.conforms ? process.stdout : process.stderr
  stream.write(
    `\n${
      stop.kind === 'configuration'
        ? 'Configuration error'
        : stop.kind === 'violation'
          ? 'Requirement violated'
          : 'Could not run'
    }: ${stop.cause}\n`,
  )
  stream.write(
    `verdict  ${report.label}\nrun      ${run.runId}  target ${run.profile} ${run.salesBaseUrl}\nreports ` +
      ` ${callerPath(dir)} (verdict.json, checks.json, conformance.md, junit.xml)\n`,
  )
  return report.exitCode ?? EXIT.inconclusive
}

/** Spawns `vitest run` with the project's config; resolves to its exit code or the signal that ended it. */
function runVitest(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const vitest = dependencyFile('vitest', 'vitest.mjs')
  const child = spawn(process.execPath, [...TIERING_FLAGS, vitest, 'run', ...conformanceConfigArgs(), ...args], {
    cwd: PROJECT_ROOT,
    env,
    stdio: 'inherit',
  })
  const forward = (s: NodeJS.Signals) => child.kill(s)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  return new Promise((done) =>
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward)
      process.off('SIGTERM', forward)
      done({ code, signal })
    }),
  )
}

/**
 * ledger-conformance run: the order is what makes every outcome reported as this run's:
 * 1. arguments (usage error: exit 2, nothing written); the reports folder and the run id
 * 2. the profile (configuration error: exit 2, reports written in place of the earlier run's)
 * 3. the selection, from the catalogue collected without running (empty: a usage error, exit 2 with the nearest
 *    matches; the earlier run's reports are kept); an earlier run's reports are removed
 * 4. vitest, told the selection: its global setup runs the target's preflight (a stop: exit 2, 1 or 3, said once as
 *    the verdict); its reporters write the reports and verdict.json; the exit code is the verdict's
 */
export async function runConformance(argv: string[]): Promise<number> {
  let args: RunArgs
  try {
    args = parseRunArgs(argv)
  } catch (e) {
    process.stderr.write(`ledger-conformance run: ${(e as Error).message}\n\n${runHelp()}\n`)
    return EXIT.usage
  }
  // what this process resolves with: the user's variables and the arguments; vitest is told the result through ONE
  // variable, LEDGER_RUN_PLAN, pointing at the run plan (common/run-plan.ts) written just before it starts
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const k of TOOL_VARS) delete env[k]
  if (args.profile) env.TARGET_PROFILE = isAbsolute(args.profile) ? args.profile : resolve(process.cwd(), args.profile)
  if (args.allowWrites) env.ALLOW_WRITES = '1'
  if (args.thorough) env.LEDGER_THOROUGH = '1'
  // acceptance starts runs strict through the variable it had (LEDGER_STRICT); --strict is the user's way
  const strict = !!args.strict || process.env[STRICT_ENV] === '1'
  const dir = resolve(process.cwd(), args.reports ?? env.REPORTS_DIR ?? 'reports')
  env.REPORTS_DIR = dir
  // this process's report helpers (the selection's catalogue, a stop's reports) read it too
  process.env.REPORTS_DIR = dir
  let vitestFilterPlanned: string | undefined
  let catalogueSize: number | undefined
  let selectedIds: string[] | undefined
  let shardBlob: string | undefined
  if (args.shard && !args.list) {
    // the merge tells the shards of one run by their run id: each machine must be given it (docs/ci.md "Shard and
    // merge")
    if (!env.CONFORMANCE_RUN_ID) {
      process.stderr.write(
        `ledger-conformance run: --shard ${args.shard.index}/${args.shard.count} needs CONFORMANCE_RUN_ID, the same ` +
          `in every shard of the run (e.g. the CI pipeline's id), so that ledger-conformance merge can tell its ` +
          `shards; nothing was run\n`,
      )
      return EXIT.usage
    }
    if (env.TARGET_PROFILES) {
      process.stderr.write(
        'ledger-conformance run: --shard runs one target; TARGET_PROFILES names several (run each target sharded on ' +
          'its own, or unsharded); nothing was run\n',
      )
      return EXIT.usage
    }
    env.CONFORMANCE_SEED ??= shardSeed(env.CONFORMANCE_RUN_ID)
    args.vitestArgs.unshift(`--shard=${args.shard.index}/${args.shard.count}`)
  }
  env.CONFORMANCE_RUN_ID ??= newRunId()
  const runId = env.CONFORMANCE_RUN_ID
  // an earlier run's reports are removed once this run is sure to happen (or a configuration stop is written): a usage
  // error (a bad option, a selection that matches no check) leaves the last run's reports as they were

  let targets: ReturnType<typeof resolveTargets>
  try {
    targets = resolveTargets(env)
    if (!args.list) checkRunSettings(env, targets.first)
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e
    if (args.list) {
      process.stderr.write(
        `(the profile does not load: ${e.message}; listing the catalogue of the reference profile)\n`,
      )
      targets = resolveTargets({ REPORTS_DIR: dir })
    } else {
      clearRunReports(dir)
      return stopRun(dir, earlyRunInfo(env, runId), { kind: 'configuration', cause: e.message })
    }
  }
  const run = env.TARGET_PROFILES ? earlyRunInfo(env, runId) : runInfo(targets.first)

  let selection: Selection | undefined
  let files = [...(args.criteria.files ?? [])]
  // a vitest shard runs part of the suite files: its verdict says "partial: N of M" (the reporter counts N, M is here)
  const sharded = args.vitestArgs.some((a) => a === '--shard' || a.startsWith('--shard='))
  // vitest's own filters (--changed, -t, files after --) run part of it too: the same "partial: N of M"
  const vitestFilter = vitestFilterOf(args.vitestArgs)
  if (vitestFilter) vitestFilterPlanned = vitestFilter
  if (hasCriteria(args.criteria) || args.list || sharded || vitestFilter) {
    let catalogue: CatalogueEntry[]
    try {
      // keyed as list and run --help key it (the target or targets, not `first`): one cached catalogue for all three
      catalogue = await collectCatalogue({ target: targets.target, targets: targets.targets })
    } catch (e) {
      if (args.list) throw e
      clearRunReports(dir)
      return stopRun(dir, run, { kind: 'inconclusive', cause: `tool error: ${(e as Error).message}` })
    }
    catalogueSize = catalogue.length
    let result
    try {
      result = selectChecks(catalogue, args.criteria)
    } catch (e) {
      if (!(e instanceof SelectionError)) throw e
      process.stderr.write(`ledger-conformance ${args.list ? 'list' : 'run'}: ${e.message}\n`)
      return EXIT.usage
    }
    if (result.selected.length === 0) {
      const cause =
        `the selection ${result.label || '(all)'} matches no check of the ${catalogue.length} in the ` +
        `catalogue; nearest: ${result.nearest.join('; ') || 'none'}`
      process.stderr.write(
        `${
          args.list ? '' : `ledger-conformance run: nothing was run, ${callerPath(dir)} keeps the last run's reports: `
        }${cause}\n`,
      )
      return EXIT.usage
    }
    if (args.list) {
      const width = Math.max(...result.selected.map((e) => e.id.length))
      const where = Math.max(...result.selected.map((e) => whereOf(e).length))
      process.stdout.write(`${result.selected.map((e) => listLine(e, width, where)).join('\n')}\n`)
      const note = result.addedSteps.length
        ? `; with ${result.addedSteps.length} earlier lifecycle step(s) the selected steps need`
        : ''
      process.stderr.write(
        `${result.selected.length} of ${catalogue.length} checks${
          result.label ? ` (selection ${result.label})` : ''
        }${note}\n`,
      )
      return EXIT.conforms
    }
    // an invariant of the model is judged on the answers of whatever checks run: selected alone, every check runs
    const runnable = result.selected.filter((e) => e.file !== 'helpers/oracle/invariants.ts')
    if (hasCriteria(args.criteria) && runnable.length > 0) {
      selection = { label: result.label, selected: result.selected.length, catalogue: catalogue.length }
      selectedIds = runnable.map((e) => e.id)
      files = [...new Set(runnable.map((e) => e.file))]
    }
  }

  // the target's preflight is the global setup's, inside the run (once: it used to run here as well, before vitest, for
  // a stop without vitest's noise, which runner/vitest/console-reporter.ts now keeps out; 0.6 s of start and the
  // preflight's requests saved, 1 s against a target 100 ms away: docs/reliability.md "Cost")
  clearRunReports(dir)
  rmSync(join(dir, SHARD_FILE), { force: true })
  for (const f of existsSync(dir) ? readdirSync(dir).filter((f) => /^blob-\d+-\d+\.json$/.test(f)) : [])
    rmSync(join(dir, f), { force: true })
  if (args.shard) {
    mkdirSync(dir, { recursive: true })
    shardBlob = join(dir, blobName(args.shard))
    const selectionWords = selection?.label || '(all)'
    writeShardInfo(dir, {
      ...args.shard,
      runId,
      seed: env.CONFORMANCE_SEED!,
      scope: {
        profile: run.profile,
        salesBaseUrl: run.embedded ? '' : run.salesBaseUrl,
        tenant: run.tenant,
        selection: selectionWords,
        strict: !!args.strict,
        thorough: !!args.thorough,
      },
      ...(selection ? { selectionDetail: selection } : {}),
      ...(catalogueSize ? { catalogueSize } : {}),
      startedAt: new Date().toISOString(),
    })
  }
  // the target(s) as resolved here go into the plan, their secrets sealed with a key that only the variable carries
  const sealed = sealTargets(targets.planned)
  const plan: RunPlan = {
    version: 1,
    runId,
    // the seed the target's resolution drew (or the user's, or the shard's): one seed in both processes
    seed: env.CONFORMANCE_SEED ?? String(targets.first.seed),
    reportsDir: dir,
    callerCwd: process.cwd(),
    ...(env.TARGET_PROFILE ? { profile: env.TARGET_PROFILE } : {}),
    allowWrites: !!args.allowWrites,
    strict,
    thorough: !!args.thorough,
    ...(selection ? { selection } : {}),
    ...(selectedIds ? { selectedChecks: selectedIds } : {}),
    ...(catalogueSize ? { catalogueSize } : {}),
    ...(vitestFilterPlanned ? { vitestFilter: vitestFilterPlanned } : {}),
    ...(shardBlob ? { shardBlob } : {}),
    targets: sealed.targets,
    sealed: sealed.sealed,
  }
  const child: NodeJS.ProcessEnv = {
    ...process.env,
    VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
    [RUN_PLAN_ENV]: runPlanVariable(writeRunPlan(plan), sealed.key),
  }
  for (const k of TOOL_VARS) delete child[k]
  const ended = await runVitest([...files, ...args.vitestArgs], colourEnv(child, process.stdout.isTTY === true))
  const verdict = readVerdictFile(dir)
  if (verdict && verdict.runId === runId) return verdict.exitCode
  const how = ended.signal ? `was ended by ${ended.signal}` : `exited ${ended.code}`
  return stopRun(
    dir,
    run,
    {
      kind: 'inconclusive',
      cause: `the run ${how} before writing its report (see the output above); no verdict could be given`,
    },
    selection,
  )
}

export const runCommand: Command = {
  name: 'run',
  summary: 'run the conformance checks against the target and give the verdict',
  get help() {
    return runHelp()
  },
  target: 'writes',
  run: runConformance,
}
