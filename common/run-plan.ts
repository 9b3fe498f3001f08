import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The run plan: what `ledger-conformance run` resolved once (arguments, profile path, run id, seed, selection,
 * strictness, shard, folders), written to `<reports>/run-plan.json` before it starts vitest. ONE variable,
 * LEDGER_RUN_PLAN, points vitest at the file; vitest.config.ts, the global setup, the workers and the reporters read
 * it through this module (docs/architecture.md "The run plan").
 *
 * The user's own variables (REPORTS_DIR, CONFORMANCE_RUN_ID, ...) keep their documented meaning: the CLI resolves
 * them into the plan, and vitest.config.ts gives the resolved values back to the loaders that read them
 * (`applyRunPlan`). The profile itself is not in the plan: the resolved configuration holds credentials, which a
 * file in the reports must not, so the global setup loads the profile named here.
 *
 * Without the variable (the in-process collection of `list`, `merge`, a harness that starts vitest itself), each
 * accessor reads the tool variable it replaces, as before.
 */
export const RUN_PLAN_ENV = 'LEDGER_RUN_PLAN'
export const RUN_PLAN_FILE = 'run-plan.json'

export interface PlannedSelection {
  label: string
  selected: number
  catalogue: number
}

export interface RunPlan {
  version: 1
  runId: string
  /** CONFORMANCE_SEED as the user gave it (or a shard's seed); undefined: the profile loader draws one. */
  seed?: string
  /** Absolute. */
  reportsDir: string
  /** The folder the user ran the CLI from: report paths are printed relative to it. */
  callerCwd: string
  /** The target profile (--profile or TARGET_PROFILE), absolute; undefined: the default. */
  profile?: string
  allowWrites: boolean
  strict: boolean
  thorough: boolean
  /** The selection's label and counts (run --check/--section/--operation); undefined: the whole catalogue. */
  selection?: PlannedSelection
  /** The check ids selected, for the workers; undefined: every check. */
  selectedChecks?: string[]
  /** How many checks the whole catalogue holds (a shard's or a filtered run's "partial: N of M"). */
  catalogueSize?: number
  /** vitest's own filters given after -- (--changed, -t, files). */
  vitestFilter?: string
  /** Where a shard writes its blob report. */
  shardBlob?: string
}

/** Writes the plan into its reports folder; returns the file's path (the value of LEDGER_RUN_PLAN). */
export function writeRunPlan(plan: RunPlan): string {
  mkdirSync(plan.reportsDir, { recursive: true })
  const file = join(plan.reportsDir, RUN_PLAN_FILE)
  writeFileSync(file, `${JSON.stringify(plan, null, 2)}\n`)
  return file
}

let cached: { file: string; plan: RunPlan } | undefined

/** The plan LEDGER_RUN_PLAN points at (read once per process and file); undefined when the variable is unset. */
export function runPlan(env: NodeJS.ProcessEnv = process.env): RunPlan | undefined {
  const file = env[RUN_PLAN_ENV]
  if (!file) return undefined
  if (cached?.file !== file) {
    const plan = JSON.parse(readFileSync(file, 'utf8')) as RunPlan
    if (plan.version !== 1 || typeof plan.runId !== 'string' || typeof plan.reportsDir !== 'string') throw new Error(`${RUN_PLAN_ENV}=${file}: not a run plan of this version`)
    cached = { file, plan }
  }
  return cached.plan
}

/**
 * Gives the plan's resolution of the user's variables back to the process that runs the checks (vitest.config.ts
 * calls it first), so the loaders that read them (the profile loader, the guard, the report paths) see what the CLI
 * resolved: REPORTS_DIR, CONFORMANCE_RUN_ID, CONFORMANCE_SEED, TARGET_PROFILE, ALLOW_WRITES, LEDGER_THOROUGH.
 */
export function applyRunPlan(env: NodeJS.ProcessEnv = process.env): RunPlan | undefined {
  const plan = runPlan(env)
  if (!plan) return undefined
  env.REPORTS_DIR = plan.reportsDir
  env.CONFORMANCE_RUN_ID = plan.runId
  if (plan.seed !== undefined) env.CONFORMANCE_SEED = plan.seed
  if (plan.profile !== undefined) env.TARGET_PROFILE = plan.profile
  if (plan.allowWrites) env.ALLOW_WRITES = '1'
  if (plan.thorough) env.LEDGER_THOROUGH = '1'
  return plan
}

// The tool variables the plan replaces, read only when no plan is given (see above).
const SELECTED_CHECKS_ENV = 'LEDGER_SELECTED_CHECKS'
const SELECTION_ENV = 'LEDGER_SELECTION'
const CATALOGUE_SIZE_ENV = 'LEDGER_CATALOGUE_CHECKS'
const STRICT_ENV = 'LEDGER_STRICT'
const VITEST_FILTER_ENV = 'LEDGER_VITEST_FILTER'
const CALLER_CWD_ENV = 'CONFORMANCE_CALLER_CWD'
const SHARD_BLOB_ENV = 'LEDGER_SHARD_BLOB'

/** The selected check ids, or undefined when every check runs. */
export function plannedSelectedChecks(env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> | undefined {
  const plan = runPlan(env)
  if (plan) return plan.selectedChecks ? new Set(plan.selectedChecks) : undefined
  const raw = env[SELECTED_CHECKS_ENV]
  if (raw === undefined || raw === '') return undefined
  return new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))
}

/** The selection's label and counts, when the run has one. */
export function plannedSelection(env: NodeJS.ProcessEnv = process.env): PlannedSelection | undefined {
  const plan = runPlan(env)
  if (plan) return plan.selection
  const raw = env[SELECTION_ENV]
  if (!raw) return undefined
  try {
    const s = JSON.parse(raw) as PlannedSelection
    return typeof s.label === 'string' && Number.isInteger(s.selected) && Number.isInteger(s.catalogue) ? s : undefined
  } catch {
    return undefined
  }
}

export function plannedCatalogueSize(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const plan = runPlan(env)
  const n = plan ? plan.catalogueSize : Number(env[CATALOGUE_SIZE_ENV])
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined
}

/** --strict: an untested requirement makes the run INCONCLUSIVE. */
export function plannedStrict(env: NodeJS.ProcessEnv = process.env): boolean {
  const plan = runPlan(env)
  return plan ? plan.strict : env[STRICT_ENV] === '1'
}

export function plannedVitestFilter(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const plan = runPlan(env)
  return plan ? plan.vitestFilter : env[VITEST_FILTER_ENV] || undefined
}

/** The folder the user ran the CLI from, when the CLI says (else the process's own). */
export function plannedCallerCwd(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const plan = runPlan(env)
  return plan ? plan.callerCwd : env[CALLER_CWD_ENV] || undefined
}

export function plannedShardBlob(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const plan = runPlan(env)
  return plan ? plan.shardBlob : env[SHARD_BLOB_ENV] || undefined
}
