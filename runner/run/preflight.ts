import { basename } from 'node:path'
import { AuthError } from '../../helpers/client/auth/session'
import { readProfile } from '../../common/config/target-config'
import type { TargetConfig, UserCredentials } from '../../common/config/types'
import type { HttpResult } from '../../helpers/client/http/types'
import { createSuiteContext } from '../../helpers/checks/context'
import { InFlight, withInFlight } from '../../helpers/client/http/in-flight'
import { TransportError } from '../../helpers/client/http/types'
import { safeText } from '../../helpers/client/evidence/redact'
import { missingTokenFault, saysUnavailable } from './login-faults'
import { salesSettings } from '../../common/config/sales-settings'

/**
 * The run cannot go on; one clear message instead of every check failing. `kind` is what it means for the verdict:
 * the target could not be tested (INCONCLUSIVE, the default), it violated a requirement (DOES NOT CONFORM), or the
 * profile is wrong (a configuration error, exit 2).
 */
export class PreflightError extends Error {
  constructor(
    message: string,
    readonly kind: 'inconclusive' | 'violation' | 'configuration' = 'inconclusive',
  ) {
    // a stop cause quotes what the target sent (a Location, a status text): the one rule before it goes anywhere
    super(safeText(message))
    this.name = 'PreflightError'
  }
}

/**
 * Before any suite: every service origin answers HTTP, every configured user can log in and gets a JWT, and the
 * sales service accepts the tenant header. Read-only; nothing is created. Resolves to the configuration the run
 * goes on with: an optional user that could not log in is left out, with the reason (its checks: not applicable).
 */
export async function preflight(config: TargetConfig): Promise<TargetConfig> {
  // no check runs here: no report, and no published-contract validation (the global setup has not handed the
  // documents over yet, and loading them here would load openapi-backend on the path to the first request)
  const ctx = createSuiteContext(config, { allure: false, trafficFile: false, contracts: false })
  const ms = config.http.preflightDeadlineMs
  const tracker = new InFlight(Date.now() + ms)
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const inFlight = tracker.describe()
      const e = new PreflightError(
        `Preflight did not finish within ${ms} ms (profile http.preflightDeadlineMs)${
          inFlight ? `: in flight: ${safeText(inFlight)}` : ''
        }. No check was run.`,
      )
      reject(e)
      tracker.abort(e)
    }, ms)
  })
  try {
    return await Promise.race([withInFlight(tracker, () => preflightSteps(config, ctx)), expired])
  } finally {
    clearTimeout(timer)
    await ctx.close()
  }
}

async function preflightSteps(config: TargetConfig, ctx: ReturnType<typeof createSuiteContext>): Promise<TargetConfig> {
  const origins = new Map<string, string>()
  origins.set(new URL(config.services.salesBaseUrl).origin, urlSource(config, 'SALES_BASE_URL', 'salesBaseUrl'))
  if (!origins.has(new URL(config.services.authUrl).origin))
    origins.set(new URL(config.services.authUrl).origin, urlSource(config, 'AUTH_URL', 'authUrl'))
  if (!origins.has(new URL(config.services.webhookBaseUrl).origin))
    origins.set(new URL(config.services.webhookBaseUrl).origin, urlSource(config, 'WEBHOOK_BASE_URL', 'webhookBaseUrl'))
  for (const [origin, name] of origins) {
    try {
      await ctx.sales.exchange({
        method: 'GET',
        url: `${origin}/`,
        headersTimeoutMs: config.http.connectTimeoutMs + 2000,
      })
    } catch (e) {
      if (e instanceof TransportError && e.code.startsWith('LC_'))
        throw new PreflightError(`Target ${name}: ${safeText(e.message)}. No check was run.`)
      if (e instanceof TransportError) {
        throw new PreflightError(
          `Target unreachable: ${name} gave no HTTP response ` +
            `(${e.code}: ${safeText(e.message.split(': ').slice(-1)[0] ?? '')}). No check was run.`,
        )
      }
      throw e
    }
  }
  const primary = await loginOf(config, ctx, 'primary', config.users.primary)
  if (primary) throw primary
  // every other configured user, side by side, and beside them the tenant header with the primary user's token (one
  // round trip less against a distant target); the challenge and expired users' logins are abnormal by design. The
  // outcomes are judged in this order: the logins, then the tenant header.
  const others = Object.entries(config.users).filter(
    ([role, u]) => role !== 'primary' && u && !LOGIN_EXEMPT.has(role),
  ) as [string, UserCredentials][]
  const tenantHeader = checkSchemas(config, ctx).then(
    () => undefined,
    (e: unknown) => e,
  )
  const failures = await Promise.all(
    others.map(async ([role, u]) => ({ role, error: await loginOf(config, ctx, role, u) })),
  )
  const refused = await tenantHeader
  const unavailable: Record<string, string> = { ...config.unavailableUsers }
  const users: Record<string, UserCredentials | undefined> = { ...config.users }
  for (const { role, error } of failures) {
    if (!error) continue
    if (error.kind === 'configuration' && config.optionalUsers?.includes(role)) {
      unavailable[role] =
        `users.${role} is optional and could not log in: ${error.message.replace(/ No check was run\.$/, '')}`
      delete users[role]
      continue
    }
    throw error
  }
  if (refused !== undefined) throw refused
  return { ...config, users: users as TargetConfig['users'], unavailableUsers: unavailable }
}

/**
 * Where a product name came from, for a message that says what to fix: the variable PRODUCT when set, else the
 * profile's field
 * (`product`, or `products[i]`).
 */
export function productSource(
  config: Pick<TargetConfig, 'product' | 'products' | 'profilePath' | 'asWritten'>,
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (env.PRODUCT) return `'${name}' (variable PRODUCT=${name})`
  let profile: { product?: unknown; products?: unknown } = config.asWritten ?? {}
  if (!config.asWritten) {
    try {
      profile = readProfile(config.profilePath) as typeof profile
    } catch {
      // the resolved configuration says enough
    }
  }
  const at = Array.isArray(profile.products) ? profile.products.indexOf(name) : -1
  const field =
    at >= 0 ? `products[${at}]` : profile.product === name || name === config.product ? 'product' : 'products'
  return `'${name}' (profile field '${field}' of ${basename(config.profilePath)}; or PRODUCT)`
}

/**
 * Where a service URL came from, for a message that says what to fix: the environment variable when it is set
 * ("SALES_BASE_URL=http://…"), else the profile's field ("http://… (services.salesBaseUrl of profile staging.json)").
 */
function urlSource(
  config: TargetConfig,
  variable: string,
  field: 'salesBaseUrl' | 'authUrl' | 'webhookBaseUrl',
  env: NodeJS.ProcessEnv = process.env,
): string {
  const origin = new URL(config.services[field]).origin
  if (env[variable]) return `${variable}=${origin}`
  return `${origin} (services.${field} of profile ${basename(config.profilePath)})`
}

/**
 * Roles whose login is abnormal on purpose (an MFA challenge, tokens issued expired, tokens that expire within a
 * second or two): their suites log them in and judge the answer.
 */
const LOGIN_EXEMPT = new Set(['challenge', 'expired', 'shortLived'])

/** The profile field and password variable that configure a user, for a message that says what to fix. */
function fieldOf(config: TargetConfig, role: string): string {
  if (role === 'primary') return "credentials (AUTH_USERNAME / AUTH_PASSWORD, profile 'credentials')"
  let env: string | undefined = config.asWritten?.passwordEnv[role]
  if (!config.asWritten) {
    try {
      env = readProfile(config.profilePath).users?.[role]?.passwordEnv
    } catch {
      env = undefined
    }
  }
  return `users.${role}${env ? ` (password from ${env})` : ''}`
}

/** What an answer that is not a login says about the configuration: a redirect, an HTML page, a 404. */
export function loginHint(res: HttpResult | undefined, config: TargetConfig): string {
  if (!res) return ''
  const location = res.headers?.location
  if (res.status >= 300 && res.status < 400) {
    return ` It redirects to ${
      location === undefined ? '(no Location)' : safeText(String(location).slice(0, 500))
    }: AUTH_URL (profile services.authUrl) should be the URL the login is really served at.`
  }
  const type = String(res.headers?.['content-type'] ?? '')
  if (/text\/html/i.test(type))
    return ` It answered an HTML page: ${config.services.authUrl} is an HTTP server, but not this identity API; check AUTH_URL (profile services.authUrl).`
  if (res.status === 404 || res.status === 405)
    return ` Check AUTH_URL (profile services.authUrl, now ${config.services.authUrl}) and auth.loginPath (now ${config.auth.loginPath}): the login is POST {authUrl}{loginPath}.`
  return ''
}

/**
 * Logs one configured user in. Resolves to undefined when it got a JWT, or to the stop it means:
 * - a token that is not a JWT: sales §5 violated by the target (DOES NOT CONFORM)
 * - a 2xx with no access_token anywhere in its JSON, JSON labelled with a non-JSON type, a 5xx other than 503: the
 *   target's fault, sales §5.2 (DOES NOT CONFORM, naming AUTH-LOGIN-001; runner/run/login-faults.ts)
 * - refused (4xx), a challenge, the token at another place than the profile says, an answer that is not the login:
 *   the profile is wrong for this target (a configuration error naming the user's field), unless the user is optional
 * - 503 or 429 (the service says it is unavailable), or no answer: the target cannot be tested now (INCONCLUSIVE)
 */
async function loginOf(
  config: TargetConfig,
  ctx: ReturnType<typeof createSuiteContext>,
  role: string,
  user: UserCredentials,
): Promise<PreflightError | undefined> {
  const field = fieldOf(config, role)
  const who = `user '${user.username}' of tenant '${user.tenant}' (${field})`
  try {
    await ctx.auth.token(user)
    return undefined
  } catch (e) {
    if (e instanceof TransportError)
      return new PreflightError(
        `Identity service unreachable while logging in ${who}: ${safeText(e.message)}. No check was run.`,
      )
    if (!(e instanceof AuthError)) throw e
    const o = e.outcome
    const url = ctx.auth.loginUrl(user.tenant)
    if (o.kind === 'invalid-token' && o.pointer) {
      // the requirement it breaks, by its check's id (suites/auth/login.test.ts): a token already expired is
      // AUTH-LOGIN-001's (a JWT with a future exp), any other unusable token AUTH-LOGIN-005's (a well-formed JWT)
      const check = o.expired ? 'AUTH-LOGIN-001' : 'AUTH-LOGIN-005'
      return new PreflightError(
        `sales-service.md §5 violated at login (${check}): POST ${url} for ${who} answered a token at ${o.pointer} ` +
          `that is not a usable JWT (${safeText(o.reason)}). No check was run.`,
        'violation',
      )
    }
    const res = o.result
    const hint = loginHint(res, config)
    const unavailable = o.kind === 'rejected' ? saysUnavailable(res) : undefined
    if (unavailable) {
      return new PreflightError(
        `Login of ${who} at ${url} answered ${unavailable}: the identity service says it is unavailable, so it ` +
          `cannot be tested now. No check was run.`,
      )
    }
    if (o.kind === 'rejected' && res.status >= 500) {
      // the identity service failed on a login it must serve: the target's fault, not the profile's (issue 27)
      return new PreflightError(
        `sales-service.md §5 violated at login (AUTH-LOGIN-001): POST ${url} for ${who} answered ${res.status} (a ` +
          `server error, not a refusal of the credentials): a login returns an access_token (§5.2). No check was ` +
          `run.`,
        'violation',
      )
    }
    if (o.kind === 'rejected') {
      return new PreflightError(
        `Configuration: ${who} cannot log in: POST ${url} answered ${res.status}.${
          hint ||
          ` Check ${field} and ` + `TENANT${role === 'primary' ? '' : `, or mark users.${role}.optional: true`}.`
        } No check was run.`,
        'configuration',
      )
    }
    const fault = o.kind === 'invalid-token' ? missingTokenFault(res) : undefined
    if (fault?.kind === 'violation') {
      return new PreflightError(
        `sales-service.md §5 violated at login (AUTH-LOGIN-001): POST ${url} for ${who} ${fault.reason}; a login ` +
          `returns an access_token field (§5.2). No check was run.`,
        'violation',
      )
    }
    if (fault)
      return new PreflightError(
        `Configuration: the login of ${who} at ${url} answered ${res.status}, ${fault.reason}. No check was run.`,
        'configuration',
      )
    if (o.kind === 'challenge') {
      return new PreflightError(
        `Configuration: ${who} logs in with a challenge (${safeText(o.challenge)}) instead of a token; name a user ` +
          `without MFA in ${field}. No check was run.`,
        'configuration',
      )
    }
    return new PreflightError(
      `Configuration: the login of ${who} at ${url} answered ${res.status} ` +
        `with ${safeText(o.kind === 'invalid-token' ? o.reason : 'no token')}.${
          hint ||
          ' Check auth.tokenPointer ' +
            '(where the profile says the token is); a target whose login gives no token at all violates ' +
            'sales-service.md §5.'
        } No check was run.`,
      'configuration',
    )
  }
}

/**
 * Read-only sales calls, side by side: the schema of every product the profile names (issue #37), the first (the
 * profile's product) with the configured tenant header judged on its answer. A 400, 401 or 403 there means the
 * tenant header name or value is wrong for this user, and every sales check would fail. A 404 means the target has
 * no such product: every check of it would be blocked, each with its own "fetch schema -> 404"; the profile's fault,
 * said once (exit 2). Any other answer is left to the checks (SL-SCH-*), which judge it.
 */
async function checkSchemas(config: TargetConfig, ctx: ReturnType<typeof createSuiteContext>): Promise<void> {
  const type = salesSettings(config).schemaType
  const names = [...new Set([config.product, ...config.products])]
  let answers
  try {
    answers = await Promise.all(
      names.map(async (name) => ({
        name,
        res: await ctx.sales.call({ op: 'sales.schemes.get', params: { type, name } }),
      })),
    )
  } catch (e) {
    if (e instanceof TransportError)
      throw new PreflightError(`Sales service unreachable: ${ctx.redactor.text(e.message)}. No check was run.`)
    throw e
  }
  const res = answers[0]!.res
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    const header = `${config.headers.tenant}: ${config.users.primary.tenant}`
    const said = safeText(res.text.slice(0, 300))
    throw new PreflightError(
      `Tenant header refused: GET ${res.exchange?.url ?? 'schemes'} with '${header}' as user ` +
        `'${config.users.primary.username}' answered ${res.status}${said ? ` (${said})` : ''}. ` +
        `Check TENANT (profile 'tenant') and the header name (profile 'headers.tenant'); the user must belong to ` +
        `that tenant. No check was run.`,
    )
  }
  const missing = answers.filter((a) => a.res.status === 404)
  if (missing.length === 0) return
  const list = missing
    .map(
      (a) => `${productSource(config, a.name)}: GET ${a.res.exchange?.url ?? `schemes/${type}/${a.name}`} answered 404`,
    )
    .join('; ')
  throw new PreflightError(
    `Configuration: the target has no ${missing.length === 1 ? 'product' : 'products'} ${list}. Name a product this ` +
      `tenant sells (profile 'product' / 'products', or PRODUCT). No check was run.`,
    'configuration',
  )
}
