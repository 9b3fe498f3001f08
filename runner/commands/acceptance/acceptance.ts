import { spawn } from 'node:child_process'
import { colourEnv } from '../colour'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { conformanceConfigArgs, dependencyFile } from '../../../common/project-root'
import {
  ConfigError,
  loadTargetConfig,
  PROJECT_ROOT,
  readProfile,
  type TargetConfig,
} from '../../../common/config/target-config'
import { reportsDir } from '../../../common/report-paths'
import { clearRunReports, type ChecksReport } from '../../run/results/results'
import { readVerdictFile } from '../../run/results/run-reports'
import {
  CATALOGUE_SIZE_ENV,
  SELECTED_CHECKS_ENV,
  SELECTION_ENV,
  STRICT_ENV,
  VITEST_FILTER_ENV,
} from '../../run/selection/env'
import { RUN_PLAN_ENV, runPlanVariable, sealTargets, writeRunPlan } from '../../../common/run-plan'
import { CALLER_CWD_ENV } from '../../../common/report-paths'
import { SHARD_BLOB_ENV } from '../../run/shard'
import { acceptanceVerdict, knownFeatures, refusedAcceptance, type AcceptanceReport } from './verdict'
import { WRITE_OPTIONS, writeModeProblem } from '../../run/guard/write-guard'
import { TARGET_OPTIONS } from '../target-options'
import { withDidYouMean } from '../did-you-mean'
import { newRunId } from '../../../common/run-id'

/** acceptance's options: the target's (--profile, --reports), the guard's (--allow-writes, --read-only) and its own. */
const OPTIONS = {
  ...TARGET_OPTIONS,
  ...WRITE_OPTIONS,
  suites: { type: 'string' },
  'allow-reference': { type: 'boolean' },
  lenient: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

const USAGE =
  `Usage: ledger-conformance acceptance --profile FILE [--reports DIR] [--allow-writes] [--suites ` +
  `suites/auth,suites/sales,...] [--allow-reference] [--lenient]     (in a clone: npm run acceptance -- ...)
  Runs the suites a new tenant must pass against the target of the profile, and says ACCEPTED or REJECTED
  (with each failed requirement and its evidence). Checks of features the tenant lacks (profile "features")
  are not applicable, with the reason. Writes <reports>/acceptance.json, with the run's conformance verdict.
  ACCEPTED only when the run CONFORMS, strictly: a requirement no check could judge (every one not applicable)
  makes it INCONCLUSIVE unless --lenient. Acceptance is about a tenant's deployment: a profile that resolves to the
  embedded reference service (no sales URL) is refused with exit 2, unless --allow-reference (a demonstration; the
  verdict then says "ACCEPTED (embedded reference, not a tenant deployment)"). Exit codes (the run's): 0 ACCEPTED ` +
  `(CONFORMS), 1 REJECTED because a
  requirement failed (DOES NOT CONFORM), 2 usage or configuration error, 3 REJECTED because the run could not test
  (INCONCLUSIVE). The acceptance suites create and change data: against a profile that is not nonProduction: true the
  production guard refuses them (exit 2, nothing sent) unless --allow-writes; acceptance cannot be read-only.`

/**
 * The suites a tenant must pass unless --suites says otherwise: every functional area (not the chaos/reliability
 * suites).
 */
export const ACCEPTANCE_SUITES = [
  'suites/auth',
  'suites/security',
  'suites/sales',
  'suites/policies',
  'suites/webhooks',
  'suites/exercise',
  'suites/concurrency',
]

/** Ends the acceptance with its exit code, the message already printed (thrown, so every early return is one line). */
class Ended extends Error {
  constructor(readonly code: number) {
    super(`acceptance ended with exit ${code}`)
  }
}

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`)
  throw new Ended(2)
}

/**
 * Refuses the acceptance before anything is started (exit 2): acceptance.json says REJECTED with the cause, so that a
 * CI job summary built from it always carries the cause.
 */
function refuse(dir: string, profilePath: string, name: string, cause: string): never {
  mkdirSync(dir, { recursive: true })
  clearRunReports(dir)
  const report = refusedAcceptance({ profile: name, profilePath, tenant: process.env.TENANT ?? '', cause })
  writeFileSync(join(dir, 'acceptance.json'), `${JSON.stringify(report, null, 2)}\n`)
  process.stderr.write(
    `ledger-conformance acceptance: ${cause}\nverdict  ${report.label}; exit ${report.exitCode} (configuration: ` +
      `nothing was started or sent)\n`,
  )
  throw new Ended(report.exitCode)
}

/**
 * ledger-conformance acceptance (npm run acceptance): the acceptance suites against the tenant profile's target, in a
 * child vitest; resolves to the run's exit code (0 ACCEPTED, 1 and 3 REJECTED, 2 usage or configuration).
 */
export async function acceptance(argv: string[]): Promise<number> {
  try {
    return await accept(argv)
  } catch (e) {
    if (e instanceof Ended) return e.code
    throw e
  }
}

async function accept(argv: string[]): Promise<number> {
  let values
  try {
    values = parseArgs({ args: argv, options: OPTIONS, strict: true }).values
  } catch (e) {
    usage(withDidYouMean((e as Error).message, OPTIONS))
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const modeProblem = writeModeProblem('acceptance', {
    allowWrites: values['allow-writes'],
    readOnly: values['read-only'],
  })
  if (modeProblem) usage(modeProblem)
  // --profile, else TARGET_PROFILE (the same option set as every command that names a target)
  const profileArg = values.profile ?? process.env.TARGET_PROFILE
  if (!profileArg) usage('--profile: required (or TARGET_PROFILE)')
  const profilePath = isAbsolute(profileArg) ? profileArg : resolve(process.cwd(), profileArg)
  const dir = values.reports ? resolve(process.cwd(), values.reports) : reportsDir()
  let profile
  try {
    profile = readProfile(profilePath)
  } catch (e) {
    if (e instanceof ConfigError) usage(e.message)
    throw e
  }
  // the target the run would test: a profile without URLs (or extending reference.json) is the embedded reference
  // resolved once, here: the run plan hands it to vitest, whose process does not load the profile again
  const runId = process.env.CONFORMANCE_RUN_ID ?? newRunId()
  let target: TargetConfig
  try {
    target = loadTargetConfig({ ...process.env, TARGET_PROFILE: profilePath, CONFORMANCE_RUN_ID: runId })
  } catch (e) {
    if (e instanceof ConfigError) refuse(dir, profilePath, profile.name, e.message)
    throw e
  }
  if (target.embedded && !values['allow-reference']) {
    refuse(
      dir,
      profilePath,
      profile.name,
      `the profile ${relative(process.cwd(), profilePath)} resolves to the embedded reference service, not a ` +
        `tenant's deployment: it names no services.salesBaseUrl (nor SALES_BASE_URL). Put the tenant's URLs in the ` +
        `profile (docs/ci.md "Tenant acceptance"), or give --allow-reference for a demonstration against the ` +
        `reference`,
    )
  }
  const suites = values.suites
    ? values.suites
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : ACCEPTANCE_SUITES.filter((s) => existsSync(join(PROJECT_ROOT, s)))
  const features = knownFeatures(profile.features ?? {})
  mkdirSync(dir, { recursive: true })
  // nothing of an earlier run is read as this one's: its reports go first, and every report of this run carries its id
  clearRunReports(dir)
  rmSync(join(dir, 'acceptance.json'), { force: true })
  process.stdout.write(
    `Tenant acceptance: profile ${profile.name} (${relative(process.cwd(), profilePath)}), ` +
      `tenant ${process.env.TENANT ?? profile.tenant}\n`,
  )
  process.stdout.write(
    `  features present: ${features.present.join(', ') || 'none'}; absent: ${features.absent.join(', ') || 'none'}\n`,
  )
  process.stdout.write(`  suites: ${suites.join(' ')}\n\n`)

  // acceptance is strict unless --lenient: a requirement no check could judge is not accepted (docs/reports.md)
  // one run plan (common/run-plan.ts), as `run` gives its vitest
  const sealed = sealTargets([{ config: target }])
  const plan = writeRunPlan({
    version: 1,
    runId,
    seed: process.env.CONFORMANCE_SEED ?? String(target.seed),
    reportsDir: dir,
    callerCwd: process.env[CALLER_CWD_ENV] || PROJECT_ROOT,
    profile: profilePath,
    allowWrites: values['allow-writes'] === true,
    strict: !values.lenient,
    thorough: false,
    // --suites is a selection: the verdict says it is partial, and what only other suites exercise is not its to miss
    ...(values.suites ? { vitestFilter: suites.join(' ') } : {}),
    targets: sealed.targets,
    sealed: sealed.sealed,
  })
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
    [RUN_PLAN_ENV]: runPlanVariable(plan, sealed.key),
  }
  for (const k of [
    SELECTED_CHECKS_ENV,
    SELECTION_ENV,
    CATALOGUE_SIZE_ENV,
    VITEST_FILTER_ENV,
    STRICT_ENV,
    CALLER_CWD_ENV,
    SHARD_BLOB_ENV,
  ])
    delete env[k]
  // colour only on a terminal, as run's (runner/commands/colour.ts): a piped log gets none
  const child = spawn(
    process.execPath,
    [dependencyFile('vitest', 'vitest.mjs'), 'run', ...conformanceConfigArgs(), ...suites],
    { cwd: PROJECT_ROOT, env: colourEnv(env, process.stdout.isTTY === true), stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let tail = ''
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-6000)
  }
  child.stdout.on('data', (d: Buffer) => (process.stdout.write(d), keep(d)))
  child.stderr.on('data', (d: Buffer) => (process.stderr.write(d), keep(d)))
  const exitCode = await new Promise<number | null>((r) => child.on('close', r))
  const checksFile = join(dir, 'checks.json')
  const checks = existsSync(checksFile) ? (JSON.parse(readFileSync(checksFile, 'utf8')) as ChecksReport) : undefined
  // only this run's reports count (they carry its run id)
  const fresh = checks?.run?.runId === runId
  const written = readVerdictFile(dir)
  const conformance = written?.runId === runId ? written : undefined
  const report: AcceptanceReport = acceptanceVerdict({
    runId,
    ...(conformance ? { conformance } : {}),
    profile: { name: profile.name, path: profilePath, tenant: process.env.TENANT ?? profile.tenant },
    features,
    suites,
    exitCode,
    checks: fresh ? checks : undefined,
    output: tail,
    ...(target.embedded ? { embeddedReference: true } : {}),
  })
  writeFileSync(join(dir, 'acceptance.json'), `${JSON.stringify(report, null, 2)}\n`)
  const out: string[] = ['', '─── tenant acceptance ────────────────────────────────────────────']
  out.push(`${report.label}  tenant ${report.tenant}  profile ${report.profile}  run ${report.runId}`)
  out.push(`verdict  ${report.conformance.label}`)
  if (report.totals)
    out.push(
      `checks   ${report.totals.passed} passed, ${report.totals.failed} failed, ${report.totals['not-applicable']} ` +
        `not applicable, ${report.totals.skipped} skipped`,
    )
  for (const r of report.reasons) out.push(`  ${r}`)
  // one line per failed check is the run's console above (FAILED <id> <clause>: its finding); here only their ids
  if (report.failed.length > 0)
    out.push(
      `  failed checks (${report.failed.length}): ${report.failed
        .slice(0, 20)
        .map((f) => f.id)
        .join(
          ', ',
        )}${report.failed.length > 20 ? `, ... ${report.failed.length - 20} more` : ''} (findings above; evidence in ` +
        `acceptance.json)`,
    )
  for (const n of report.notApplicable) out.push(`  not applicable (${n.checks.length}): ${n.reason}`)
  for (const r of report.untested) out.push(`  UNTESTED ${r.id} ${r.document} ${r.section}: ${r.enable.join('; ')}`)
  out.push(`written  ${relative(process.cwd(), join(dir, 'acceptance.json'))}`)
  process.stdout.write(`${out.join('\n')}\n`)
  return report.exitCode
}
