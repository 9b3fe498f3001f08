import { AuthError } from '../helpers/auth/session'
import type { TargetConfig } from '../helpers/config/types'
import { createSuiteContext } from '../helpers/context'
import { InFlight, withInFlight } from '../helpers/http/in-flight'
import { TransportError } from '../helpers/http/types'
import { safeText } from '../helpers/reporting/redact'

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
    super(message)
    this.name = 'PreflightError'
  }
}

/**
 * Before any suite: every service origin answers HTTP, the primary user can log in and gets a JWT,
 * and the sales service accepts the tenant header. Read-only; nothing is created.
 */
export async function preflight(config: TargetConfig): Promise<void> {
  const ctx = createSuiteContext(config, { allure: false, trafficFile: false })
  const ms = config.http.preflightDeadlineMs
  const tracker = new InFlight(Date.now() + ms)
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const inFlight = tracker.describe()
      const e = new PreflightError(
        `Preflight did not finish within ${ms} ms (profile http.preflightDeadlineMs)${inFlight ? `: in flight: ${safeText(inFlight)}` : ''}. No check was run.`,
      )
      tracker.abort(e)
      reject(e)
    }, ms)
  })
  try {
    await Promise.race([withInFlight(tracker, () => preflightSteps(config, ctx)), expired])
  } finally {
    clearTimeout(timer)
    await ctx.close()
  }
}

async function preflightSteps(config: TargetConfig, ctx: ReturnType<typeof createSuiteContext>): Promise<void> {
  const origins = new Map<string, string>()
  origins.set(new URL(config.services.salesBaseUrl).origin, 'SALES_BASE_URL')
  if (!origins.has(new URL(config.services.authUrl).origin)) origins.set(new URL(config.services.authUrl).origin, 'AUTH_URL')
  if (!origins.has(new URL(config.services.webhookBaseUrl).origin)) origins.set(new URL(config.services.webhookBaseUrl).origin, 'WEBHOOK_BASE_URL')
  for (const [origin, name] of origins) {
    try {
      await ctx.sales.exchange({ method: 'GET', url: `${origin}/`, headersTimeoutMs: config.http.connectTimeoutMs + 2000 })
    } catch (e) {
      if (e instanceof TransportError && e.code.startsWith('LC_')) throw new PreflightError(`Target ${name}=${origin}: ${safeText(e.message)}. No check was run.`)
      if (e instanceof TransportError) {
        throw new PreflightError(`Target unreachable: ${name}=${origin} gave no HTTP response (${e.code}: ${safeText(e.message.split(': ').slice(-1)[0] ?? '')}). No check was run.`)
      }
      throw e
    }
  }
  try {
    await ctx.auth.token(config.users.primary)
  } catch (e) {
    if (e instanceof AuthError) throw new PreflightError(`Login failed: ${safeText(e.message)}. No check was run.`)
    if (e instanceof TransportError) throw new PreflightError(`Identity service unreachable: ${safeText(e.message)}. No check was run.`)
    throw e
  }
  await checkTenantHeader(config, ctx)
}

/**
 * One read-only sales call (the product's policy scheme) with the configured tenant header: a 400, 401 or
 * 403 means the tenant header name or value is wrong for this user, and every sales check would fail.
 */
async function checkTenantHeader(config: TargetConfig, ctx: ReturnType<typeof createSuiteContext>): Promise<void> {
  const header = `${config.headers.tenant}: ${config.users.primary.tenant}`
  let res
  try {
    res = await ctx.sales.call({ op: 'sales.schemes.get', params: { type: 'policy', name: config.product } })
  } catch (e) {
    if (e instanceof TransportError) throw new PreflightError(`Sales service unreachable: ${ctx.redactor.text(e.message)}. No check was run.`)
    throw e
  }
  if (res.status !== 400 && res.status !== 401 && res.status !== 403) return
  const said = safeText(res.text.slice(0, 300))
  throw new PreflightError(
    `Tenant header refused: GET ${res.exchange?.url ?? 'schemes'} with '${header}' as user '${config.users.primary.username}' answered ${res.status}${said ? ` (${said})` : ''}. ` +
      `Check TENANT (profile 'tenant') and the header name (profile 'headers.tenant'); the user must belong to that tenant. No check was run.`,
  )
}
