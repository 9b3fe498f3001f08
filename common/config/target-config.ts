import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { formatAjvErrors } from '../ajv'
import { PROJECT_ROOT } from '../project-root'
import { ConfigError } from './config-error'
import { SchemaCompiler } from '../data/schema-compiler'
import { parseJsonc } from './jsonc'
import { DEFAULT_ANSWER_BUDGET_BYTES, DEFAULT_BREAKER, DEFAULT_HTTP_LIMITS } from './http-defaults'
import { SCHEMA_LIMITS } from './schema-limits'
import { isHttpUrl, readEnv, type EnvName } from './env'
import type { TargetConfig, UserCredentials } from './types'
import { newRunId } from '../run-id'

/** Default of auth.expiryLeewaySeconds: a token accepted up to 30 s past its exp is a deviation, later a failure. */
export const DEFAULT_EXPIRY_LEEWAY_SECONDS = 30

/**
 * Default of auth.maxExpiryLeewaySeconds: the ceiling of any acceptable leeway (RFC 7519 §4.1.4: "some small leeway,
 * usually no more than a few minutes"). A token accepted past exp plus this is a failure whatever the profile accepts;
 * --thorough probes past it (docs/reports.md "Expiry beyond any acceptable leeway").
 */
export const DEFAULT_MAX_EXPIRY_LEEWAY_SECONDS = 120

export type * from './types'

export { PROJECT_ROOT }
export const DEFAULT_PROFILE = resolve(PROJECT_ROOT, 'fixtures/targets/reference.json')
const PROFILE_SCHEMA = resolve(PROJECT_ROOT, 'fixtures/targets/profile.schema.json')

export const DEFAULT_TOKEN_POINTERS = ['/authentication_result/access_token', '/access_token']

export { ConfigError }

type RawUser = { tenant?: string; username: string; password?: string; passwordEnv?: string; optional?: boolean }
type RawProfile = {
  name: string
  nonProduction?: boolean
  services?: { salesBaseUrl?: string; authUrl?: string; webhookBaseUrl?: string }
  tenant: string
  product?: string
  products?: string[]
  credentials: RawUser
  users?: Record<string, RawUser>
  headers?: { tenant?: string; acceptLanguage?: string; extra?: Record<string, string> }
  auth?: {
    loginPath?: string
    refreshPath?: string
    tokenPointer?: string
    refreshSkewSeconds?: number
    expiryLeewaySeconds?: number
    maxExpiryLeewaySeconds?: number
  }
  statuses?: { pending?: string[]; success?: string[]; failure?: string[] }
  polling?: Partial<TargetConfig['polling']>
  http?: Partial<TargetConfig['http']>
  schemaLimits?: Partial<TargetConfig['schemaLimits']>
  features?: Record<string, unknown>
  deviations?: Record<string, 'warn' | 'fail'>
  openapi?: string[]
  contract?: 'fail' | 'warn'
  reference?: Omit<TargetConfig['reference'], 'defects'>
  extensions?: Record<string, Record<string, unknown>>
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * `over` merged onto `base` as a JSON Merge Patch (RFC 7386): objects field by field, null removes a field, anything
 * else (arrays included) replaces.
 */
export function mergeProfile(base: Json, over: Json): Json {
  const out: Json = { ...base }
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k]
    else out[k] = isObject(v) && isObject(base[k]) ? mergeProfile(base[k] as Json, v) : v
  }
  return out
}

/** A profile file's JSON with its `extends` chain merged in (at most 5 deep). */
function readProfileData(path: string, label: string, depth = 0): unknown {
  if (!existsSync(path)) throw new ConfigError([`${label}: file not found`])
  let data: unknown
  try {
    data = parseJsonc(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new ConfigError([`${label}: not valid JSON: ${(e as Error).message}`])
  }
  if (!isObject(data) || data.extends === undefined) return data
  if (typeof data.extends !== 'string' || data.extends === '')
    throw new ConfigError([`${label} /extends: must be a non-empty string (the path of a base profile)`])
  if (depth >= 5) throw new ConfigError([`${label} /extends: more than 5 levels of extends`])
  const basePath = resolve(dirname(path), data.extends)
  const base = readProfileData(basePath, `${label} /extends (${basePath})`, depth + 1)
  if (!isObject(base)) throw new ConfigError([`${label} /extends (${basePath}): not a JSON object`])
  const { extends: _extends, ...own } = data
  const { $schema: _schema, ...inherited } = base
  return mergeProfile(inherited, own)
}

/** Reads and validates a profile file (with its `extends` base). Throws ConfigError naming the file and field. */
export function readProfile(path: string): RawProfile {
  const label = `TARGET_PROFILE (${path})`
  const data = readProfileData(path, label)
  // compiled once per process, not once per profile (a multi-target run reads one per target)
  const validate = new SchemaCompiler().compile(JSON.parse(readFileSync(PROFILE_SCHEMA, 'utf8')) as object, {
    shipped: true,
  })
  if (!validate(data)) {
    throw new ConfigError(formatAjvErrors(validate.errors).map((m) => `${label} ${m}`))
  }
  return data as RawProfile
}

function lower(list: string[] | undefined, fallback: string[]): string[] {
  return (list ?? fallback).map((s) => s.toLowerCase())
}

/**
 * Resolves the target from a profile and the environment.
 * Pure: reads files and `env`, sends nothing. Throws ConfigError before any request.
 */
export function loadTargetConfig(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  const problems: string[] = []
  const profileEnv = readEnv(env, 'TARGET_PROFILE')
  const profilePath = profileEnv
    ? isAbsolute(profileEnv)
      ? profileEnv
      : resolve(process.cwd(), profileEnv)
    : DEFAULT_PROFILE
  const p = readProfile(profilePath)

  const url = (name: EnvName, fromProfile: string | undefined, field: string): string | undefined => {
    const v = readEnv(env, name)
    if (v === undefined) return fromProfile
    if (!isHttpUrl(v)) {
      problems.push(`${name}: must be an absolute http(s) URL (profile field ${field}), got '${v}'`)
      return undefined
    }
    return v.replace(/\/+$/, '')
  }
  const salesBaseUrl = url('SALES_BASE_URL', p.services?.salesBaseUrl, 'services.salesBaseUrl')
  const authUrl = url('AUTH_URL', p.services?.authUrl, 'services.authUrl')
  const webhookBaseUrl = url('WEBHOOK_BASE_URL', p.services?.webhookBaseUrl, 'services.webhookBaseUrl')
  const embedded = salesBaseUrl === undefined && !problems.some((m) => m.startsWith('SALES_BASE_URL'))
  if (!embedded && salesBaseUrl === undefined && readEnv(env, 'SALES_BASE_URL') === undefined) {
    problems.push('services.salesBaseUrl: is required')
  }

  const tenant = readEnv(env, 'TENANT') ?? p.tenant
  if (!/^[A-Za-z0-9._-]+$/.test(tenant)) problems.push(`TENANT: must match [A-Za-z0-9._-]+, got '${tenant}'`)

  const resolveUser = (
    raw: RawUser,
    field: string,
    overrides?: { username?: string; password?: string },
  ): UserCredentials | undefined => {
    const username = overrides?.username ?? raw.username
    let password = overrides?.password ?? raw.password
    if (password === undefined && raw.passwordEnv) {
      password = env[raw.passwordEnv]
      if (!password) {
        problems.push(`${field}.passwordEnv: environment variable ${raw.passwordEnv} is not set`)
        return undefined
      }
    }
    if (!password) {
      problems.push(
        `${field}.password: is required (or set passwordEnv${field === 'credentials' ? ' or AUTH_PASSWORD' : ''})`,
      )
      return undefined
    }
    return { tenant: raw.tenant ?? tenant, username, password }
  }
  const envUser = readEnv(env, 'AUTH_USERNAME')
  const envPassword = env.AUTH_PASSWORD !== undefined && env.AUTH_PASSWORD !== '' ? env.AUTH_PASSWORD : undefined
  if (env.AUTH_PASSWORD !== undefined && env.AUTH_PASSWORD === '') problems.push('AUTH_PASSWORD: is set but empty')
  const primary = resolveUser({ ...p.credentials, tenant }, 'credentials', {
    ...(envUser ? { username: envUser } : {}),
    ...(envPassword ? { password: envPassword } : {}),
  })
  const users: TargetConfig['users'] = { primary: primary ?? { tenant, username: '', password: '' } }
  // an optional user whose password variable is not set is left out, with the reason (its checks: not applicable)
  const unavailableUsers: Record<string, string> = {}
  const optionalUsers: string[] = []
  for (const [role, raw] of Object.entries(p.users ?? {})) {
    if (raw.optional) optionalUsers.push(role)
    if (raw.optional && raw.password === undefined && raw.passwordEnv && !env[raw.passwordEnv]) {
      unavailableUsers[role] = `users.${role} is optional and its password variable ${raw.passwordEnv} is not set`
      continue
    }
    const u = resolveUser(raw, `users.${role}`)
    if (u) (users as Record<string, UserCredentials>)[role] = u
  }

  const product = readEnv(env, 'PRODUCT') ?? p.product ?? 'home'
  const products = readEnv(env, 'PRODUCT') ? [product] : (p.products ?? [product])

  const seedRaw = readEnv(env, 'CONFORMANCE_SEED')
  let seed = Math.floor(Math.random() * 2 ** 31)
  if (seedRaw !== undefined) {
    if (!/^\d{1,10}$/.test(seedRaw)) problems.push(`CONFORMANCE_SEED: must be a non-negative integer, got '${seedRaw}'`)
    else seed = Number(seedRaw)
  }
  const runId = readEnv(env, 'CONFORMANCE_RUN_ID') ?? newRunId()
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(runId))
    problems.push(`CONFORMANCE_RUN_ID: must match [A-Za-z0-9_-]{1,64}, got '${runId}'`)

  const defects = (readEnv(env, 'REFERENCE_DEFECTS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (defects.length > 0 && !embedded)
    problems.push('REFERENCE_DEFECTS: only applies to the embedded reference service; unset SALES_BASE_URL')

  const leeway = p.auth?.expiryLeewaySeconds ?? DEFAULT_EXPIRY_LEEWAY_SECONDS
  const ceiling = p.auth?.maxExpiryLeewaySeconds ?? Math.max(DEFAULT_MAX_EXPIRY_LEEWAY_SECONDS, leeway)
  if (ceiling < leeway)
    problems.push(
      `auth.maxExpiryLeewaySeconds: ${ceiling} is below auth.expiryLeewaySeconds (${leeway}); the ceiling of any ` +
        `acceptable leeway cannot be smaller than the leeway the profile accepts`,
    )
  const thoroughRaw = readEnv(env, 'LEDGER_THOROUGH')
  if (thoroughRaw !== undefined && thoroughRaw !== '1' && thoroughRaw !== '0')
    problems.push(`LEDGER_THOROUGH: must be 1 or 0, got '${thoroughRaw}'`)

  if (problems.length > 0) throw new ConfigError(problems)

  const base = salesBaseUrl ?? ''
  return {
    profileName: p.name,
    profilePath,
    nonProduction: p.nonProduction ?? false,
    embedded,
    services: {
      salesBaseUrl: base,
      authUrl: authUrl ?? (base ? `${base}/api/v1/identifier` : ''),
      webhookBaseUrl: webhookBaseUrl ?? base,
    },
    tenant,
    product,
    products,
    users,
    optionalUsers,
    unavailableUsers,
    headers: {
      tenant: p.headers?.tenant ?? 'X-TENANT-ID',
      acceptLanguage: p.headers?.acceptLanguage ?? 'en',
      extra: p.headers?.extra ?? {},
    },
    auth: {
      loginPath: p.auth?.loginPath ?? '/login/{tenant}',
      refreshPath: p.auth?.refreshPath ?? '/token/refresh/{tenant}',
      tokenPointers: p.auth?.tokenPointer ? [p.auth.tokenPointer] : DEFAULT_TOKEN_POINTERS,
      refreshSkewSeconds: p.auth?.refreshSkewSeconds ?? 30,
      expiryLeewaySeconds: leeway,
      maxExpiryLeewaySeconds: ceiling,
    },
    statuses: {
      pending: lower(p.statuses?.pending, ['pending']),
      success: lower(p.statuses?.success, ['success']),
      failure: lower(p.statuses?.failure, ['failure']),
    },
    polling: {
      initialDelayMs: p.polling?.initialDelayMs ?? 25,
      maxDelayMs: p.polling?.maxDelayMs ?? 500,
      maxRatePerSecond: p.polling?.maxRatePerSecond ?? 10,
      actionsDeadlineMs: p.polling?.actionsDeadlineMs ?? 30000,
      requestDeadlineMs: p.polling?.requestDeadlineMs ?? 60000,
      longPolling: p.polling?.longPolling ?? false,
    },
    http: {
      connectTimeoutMs: p.http?.connectTimeoutMs ?? 3000,
      headersTimeoutMs: p.http?.headersTimeoutMs ?? 15000,
      bodyTimeoutMs: p.http?.bodyTimeoutMs ?? 15000,
      maxInFlight: p.http?.maxInFlight ?? 32,
      exchangeDeadlineMs: p.http?.exchangeDeadlineMs ?? DEFAULT_HTTP_LIMITS.exchangeDeadlineMs,
      maxResponseBytes: p.http?.maxResponseBytes ?? DEFAULT_HTTP_LIMITS.maxResponseBytes,
      maxJsonDepth: p.http?.maxJsonDepth ?? DEFAULT_HTTP_LIMITS.maxJsonDepth,
      callDeadlineMs: p.http?.callDeadlineMs ?? DEFAULT_HTTP_LIMITS.callDeadlineMs,
      preflightDeadlineMs: p.http?.preflightDeadlineMs ?? DEFAULT_HTTP_LIMITS.preflightDeadlineMs,
      breakerExpiries: p.http?.breakerExpiries ?? DEFAULT_BREAKER.expiries,
      breakerSilenceMs: p.http?.breakerSilenceMs ?? DEFAULT_BREAKER.silenceMs,
      answerBudgetBytes: p.http?.answerBudgetBytes ?? DEFAULT_ANSWER_BUDGET_BYTES,
      answerBudgets: p.http?.answerBudgets ?? {},
    },
    schemaLimits: { ...SCHEMA_LIMITS, ...(p.schemaLimits ?? {}) },
    features: p.features ?? {},
    ...(p.openapi
      ? {
          openapi: p.openapi.map((s) =>
            /^https?:\/\//i.test(s) || s.startsWith('{') || isAbsolute(s) ? s : resolve(dirname(profilePath), s),
          ),
        }
      : {}),
    ...(p.contract ? { contract: p.contract } : {}),
    deviations: p.deviations ?? {},
    reference: { ...(p.reference ?? {}), defects },
    extensions: p.extensions ?? {},
    asWritten: {
      services: { ...(p.services ?? {}) },
      ...(p.product !== undefined ? { product: p.product } : {}),
      ...(p.products !== undefined ? { products: [...p.products] } : {}),
      passwordEnv: Object.fromEntries(
        Object.entries(p.users ?? {}).flatMap(([role, u]) => (u.passwordEnv ? [[role, u.passwordEnv]] : [])),
      ),
    },
    runId,
    seed,
    thorough: thoroughRaw === '1',
  }
}

/** The reference service's own published OpenAPI 3.1 document (reference/openapi.ts), as a profile `openapi` source. */
export const REFERENCE_OPENAPI = '{salesBaseUrl}/openapi.json'

/**
 * The reference (embedded, or its container) validated against its own published document unless the profile names
 * documents of its own (`"openapi": []` turns it off): the published-contract checks run on every embedded run
 * (docs/contracts.md). A target by URL keeps its profile's `openapi` as written.
 */
export function withReferenceContract(config: TargetConfig): TargetConfig {
  return config.openapi === undefined ? { ...config, openapi: [REFERENCE_OPENAPI] } : config
}

/** The same target with the embedded service's origin filled in. */
export function withEmbeddedOrigin(config: TargetConfig, origin: string): TargetConfig {
  return {
    ...config,
    services: { salesBaseUrl: origin, authUrl: `${origin}/api/v1/identifier`, webhookBaseUrl: origin },
  }
}
