import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { TargetConfig } from './config/types'

/**
 * The run plan: what `ledger-conformance run` resolved once (arguments, profile path, run id, seed, selection,
 * strictness, shard, folders), written to `<reports>/run-plan.json` before it starts vitest. ONE variable,
 * LEDGER_RUN_PLAN, points vitest at the file; vitest.config.ts, the global setup, the workers and the reporters read
 * it through this module (docs/architecture.md "The run plan").
 *
 * The user's own variables (REPORTS_DIR, CONFORMANCE_RUN_ID, ...) keep their documented meaning: the CLI resolves
 * them into the plan, and vitest.config.ts gives the resolved values back to the loaders that read them
 * (`applyRunPlan`). The target(s) are in the plan as the CLI resolved them from the profile(s) and the environment
 * (`targets`), so vitest's process does not load a profile again (`plannedTargets`); their secrets (the users'
 * passwords, the extra headers' values) are not in the file in clear: they are sealed (AES-256-GCM) with a key
 * drawn for the run, which travels in the same variable and never touches the disk (`LEDGER_RUN_PLAN=<file>#key=<k>`).
 * The reports folder, the plan's, may be shared (a CI artifact): without the key, what it holds of a secret is noise.
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
  /**
   * CONFORMANCE_SEED as the user gave it, a shard's seed, or the one the CLI's resolution of the target drew;
   * undefined: the profile loader draws one.
   */
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
  /**
   * The target(s) the CLI resolved, each with its secrets replaced by SEALED (one without a key: the single target of
   * TARGET_PROFILE; with keys: those of TARGET_PROFILES, in order). Undefined: the global setup loads the profile.
   */
  targets?: PlannedTarget[]
  /** The targets' secrets, sealed with the run's key (sealTargets). */
  sealed?: SealedSecrets
}

/** A resolved target as the plan carries it. */
export interface PlannedTarget {
  key?: string
  config: TargetConfig
}

/** What stands in the plan where a secret was. */
export const SEALED = '(sealed: see common/run-plan.ts)'

/** AES-256-GCM of the targets' secrets (JSON), base64. */
export interface SealedSecrets {
  iv: string
  tag: string
  data: string
}

/** One target's secrets: the users' passwords by role, the extra headers' values by name. */
interface TargetSecrets {
  passwords: Record<string, string>
  headers: Record<string, string>
}

const KEY_MARK = '#key='

/**
 * The targets with their secrets sealed: what the plan holds, the sealed secrets, and the key (base64url) that
 * opens them, which goes only into the variable (never into a file).
 */
export function sealTargets(targets: readonly PlannedTarget[]): {
  targets: PlannedTarget[]
  sealed: SealedSecrets
  key: string
} {
  const secrets: TargetSecrets[] = []
  const open = targets.map((t) => {
    const passwords: Record<string, string> = {}
    const users: Record<string, unknown> = {}
    for (const [role, u] of Object.entries(t.config.users)) {
      if (!u) continue
      passwords[role] = u.password
      users[role] = { ...u, password: SEALED }
    }
    const headers = { ...t.config.headers.extra }
    const extra = Object.fromEntries(Object.keys(headers).map((k) => [k, SEALED]))
    secrets.push({ passwords, headers })
    const config = { ...t.config, users: users as TargetConfig['users'], headers: { ...t.config.headers, extra } }
    return { ...(t.key !== undefined ? { key: t.key } : {}), config }
  })
  const key = randomBytes(32)
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()])
  return {
    targets: open,
    sealed: { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') },
    key: key.toString('base64url'),
  }
}

/** The value of LEDGER_RUN_PLAN: the plan's file, and the key of its sealed secrets when it has some. */
export function runPlanVariable(file: string, key?: string): string {
  return key ? `${file}${KEY_MARK}${key}` : file
}

function planFileOf(value: string): { file: string; key?: string } {
  const at = value.lastIndexOf(KEY_MARK)
  return at < 0 ? { file: value } : { file: value.slice(0, at), key: value.slice(at + KEY_MARK.length) }
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
  const value = env[RUN_PLAN_ENV]
  if (!value) return undefined
  const { file } = planFileOf(value)
  if (cached?.file !== file) {
    const plan = JSON.parse(readFileSync(file, 'utf8')) as RunPlan
    if (plan.version !== 1 || typeof plan.runId !== 'string' || typeof plan.reportsDir !== 'string')
      throw new Error(`${RUN_PLAN_ENV}=${file}: not a run plan of this version`)
    cached = { file, plan }
  }
  return cached.plan
}

/**
 * The target(s) the CLI resolved, their secrets opened with the variable's key: what the global setup and the
 * reporters use instead of loading the profile again. Undefined without a plan, with a plan that holds no targets
 * (merge), or when the key is missing or does not open them (a plan handed to vitest by hand): the caller then loads
 * the profile itself, as without a plan.
 */
export function plannedTargets(env: NodeJS.ProcessEnv = process.env): PlannedTarget[] | undefined {
  const plan = runPlan(env)
  if (!plan?.targets || plan.targets.length === 0) return undefined
  const { key } = planFileOf(env[RUN_PLAN_ENV]!)
  if (!plan.sealed || !key) return undefined
  let secrets: TargetSecrets[]
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(key, 'base64url'),
      Buffer.from(plan.sealed.iv, 'base64'),
    )
    decipher.setAuthTag(Buffer.from(plan.sealed.tag, 'base64'))
    secrets = JSON.parse(
      Buffer.concat([decipher.update(Buffer.from(plan.sealed.data, 'base64')), decipher.final()]).toString('utf8'),
    ) as TargetSecrets[]
  } catch {
    return undefined
  }
  if (secrets.length !== plan.targets.length) return undefined
  return plan.targets.map((t, i) => {
    const s = secrets[i]!
    const users = Object.fromEntries(
      Object.entries(t.config.users).map(([role, u]) => [role, u && { ...u, password: s.passwords[role] ?? '' }]),
    )
    const config: TargetConfig = {
      ...t.config,
      users: users as TargetConfig['users'],
      headers: { ...t.config.headers, extra: { ...s.headers } },
    }
    return { ...(t.key !== undefined ? { key: t.key } : {}), config }
  })
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
  return new Set(
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
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
