import type { CheckOutcome, ChecksReport } from '../../run/results/results'
import type { RunInfo } from '../../run/results/run-info'
import type { ServiceUrls } from '../../../common/config/types'
import { nearest } from '../did-you-mean'
import { matchOperation } from '../../../common/operations'

/** One request of a check as recorded in the run's Allure exchange attachments (already redacted). */
export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
  /** What the target answered in the original run (status, or the transport error). */
  originally: string
}

/** What replay does with one recorded request. */
export type ReplayStep =
  | { kind: 'send'; request: RecordedRequest; url: string; headers: Record<string, string> }
  | { kind: 'skip'; request: RecordedRequest; reason: string }

/** Methods that change nothing on the server: replayed with --read-only too. Everything else is a write. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Headers the client computes itself, or that say nothing about what the target was asked (as reproduce.ts). */
const LEFT_OUT = new Set([
  'host',
  'content-length',
  'connection',
  'accept-encoding',
  'user-agent',
  'transfer-encoding',
  'keep-alive',
  'authorization',
])

const REDACTED_MARK = /\[REDACTED(?:-JWT)?\]/

/** The check of that id in the report, or the usage message (with the nearest id when one is close). */
export function findCheck(
  report: Pick<ChecksReport, 'checks'>,
  id: string,
): { check: CheckOutcome } | { problem: string } {
  const check =
    report.checks.find((c) => c.id === id) ?? report.checks.find((c) => c.id.toLowerCase() === id.toLowerCase())
  if (check) return { check }
  const near = nearest(
    id,
    report.checks.map((c) => c.id),
  )
  return { problem: `no check '${id}' in the last run's reports${near ? `. Did you mean ${near}?` : ''}` }
}

/**
 * The URL moved from the run's service (run.json) to the same service of the target resolved now: the longest base
 * of the run that prefixes it (the auth URL usually extends the sales base URL); when the sales and webhook services
 * shared a base in the run, the operation the path matches says which service it was.
 */
export function rebase(
  url: string,
  run: Pick<RunInfo, 'salesBaseUrl' | 'webhookBaseUrl' | 'authUrl'>,
  now: ServiceUrls,
  method = 'GET',
): string {
  const trim = (u: string) => u.replace(/\/+$/, '')
  const prefixes = (base: string | undefined) =>
    base !== undefined && (url === trim(base) || url.startsWith(`${trim(base)}/`) || url.startsWith(`${trim(base)}?`))
  const candidates = (
    [
      ['auth', run.authUrl],
      ['webhooks', run.webhookBaseUrl],
      ['sales', run.salesBaseUrl],
    ] as const
  ).filter(([, b]) => prefixes(b))
  if (candidates.length === 0) return url
  const longest = Math.max(...candidates.map(([, b]) => trim(b!).length))
  const tied = candidates.filter(([, b]) => trim(b!).length === longest)
  const rest = url.slice(longest)
  const service =
    tied.length === 1
      ? tied[0]![0]
      : tied.some(([k]) => k === 'auth')
        ? 'auth'
        : matchOperation(method, new URL(rest || '/', 'http://x').pathname)?.service === 'webhooks'
          ? 'webhooks'
          : 'sales'
  const to = service === 'auth' ? now.authUrl : service === 'webhooks' ? now.webhookBaseUrl : now.salesBaseUrl
  return `${trim(to)}${rest}`
}

/** Whether a recorded request is the suite's login (replaced by a fresh login with the configured credentials). */
export function isLogin(r: RecordedRequest, run: Pick<RunInfo, 'authUrl'>): boolean {
  return (
    r.method.toUpperCase() === 'POST' &&
    run.authUrl !== undefined &&
    r.url.startsWith(run.authUrl) &&
    /login/i.test(r.url.slice(run.authUrl.length))
  )
}

/**
 * Decides, request by request, what replay sends: logins are left out (replay logs in itself), writes (every method
 * but GET, HEAD, OPTIONS) only with `allowWrites` (the production guard's decision: runner/run/guard/write-guard.ts),
 * and a request carrying a redacted value other than the bearer
 * token is never sent (the value is not known here: it was redacted when it was recorded). The bearer token is the
 * fresh login's (added when sending); URLs move to the target resolved now.
 */
export function planReplay(
  requests: readonly RecordedRequest[],
  opts: { run: Pick<RunInfo, 'salesBaseUrl' | 'webhookBaseUrl' | 'authUrl'>; now: ServiceUrls; allowWrites: boolean },
): ReplayStep[] {
  return requests.map((request): ReplayStep => {
    const method = request.method.toUpperCase()
    if (isLogin(request, opts.run))
      return {
        kind: 'skip',
        request,
        reason: 'the login of the run: replay logged in with the configured credentials instead',
      }
    if (!SAFE_METHODS.has(method) && !opts.allowWrites)
      return { kind: 'skip', request, reason: `${method} may change data on the target: not re-sent with --read-only` }
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(request.headers)) if (!LEFT_OUT.has(k.toLowerCase())) headers[k] = v
    const hidden =
      Object.entries(headers).find(([, v]) => REDACTED_MARK.test(v))?.[0] ??
      (request.body && REDACTED_MARK.test(request.body) ? 'body' : undefined)
    if (hidden)
      return {
        kind: 'skip',
        request,
        reason:
          `its ${hidden === 'body' ? 'body' : `header ${hidden}`} carried a secret that was redacted in the ` +
          `reports: not re-sent`,
      }
    return { kind: 'send', request, url: rebase(request.url, opts.run, opts.now, method), headers }
  })
}

/** Whether the recorded request sent a bearer token (replay sends the fresh login's in its place). */
export function sentToken(r: RecordedRequest): boolean {
  return Object.entries(r.headers).some(([k, v]) => k.toLowerCase() === 'authorization' && /^bearer\s/i.test(v))
}

interface AllureStep {
  name?: string
  start?: number
  attachments?: { name?: string; source?: string }[]
  steps?: AllureStep[]
}

export interface AllureResultLike extends AllureStep {
  name: string
  start?: number
}

/** The attachment files of the exchange steps of one Allure result, in the order they were sent. */
export function exchangeSources(result: AllureStep): string[] {
  const out: { at: number; source: string }[] = []
  const walk = (s: AllureStep) => {
    for (const a of s.attachments ?? [])
      if (a.name === 'exchange' && a.source) out.push({ at: s.start ?? 0, source: a.source })
    for (const c of s.steps ?? []) walk(c)
  }
  for (const c of result.steps ?? []) walk(c)
  return out.sort((a, b) => a.at - b.at).map((o) => o.source)
}

/** The Allure result of the check in the run: its name starts with the id; the latest when several runs are kept. */
export function resultOfCheck<T extends AllureResultLike>(
  results: readonly T[],
  id: string,
  startedAt?: string,
): T | undefined {
  const since = startedAt ? Date.parse(startedAt) : 0
  return results
    .filter((r) => r.name === id || r.name.startsWith(`${id} `))
    .filter((r) => !since || (r.start ?? 0) >= since - 1000)
    .sort((a, b) => (b.start ?? 0) - (a.start ?? 0))[0]
}

/** An exchange attachment (helpers/client/http/allure-sink.ts) as a recorded request; undefined when it is not one. */
export function recordedRequest(json: unknown): RecordedRequest | undefined {
  const x = json as {
    request?: { method?: unknown; url?: unknown; headers?: unknown; body?: unknown }
    response?: { status?: unknown; error?: unknown }
  }
  const req = x?.request
  if (!req || typeof req.method !== 'string' || typeof req.url !== 'string') return undefined
  const headers =
    req.headers && typeof req.headers === 'object'
      ? Object.fromEntries(Object.entries(req.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)]))
      : {}
  const body =
    req.body === undefined || req.body === null
      ? undefined
      : typeof req.body === 'string'
        ? req.body
        : JSON.stringify(req.body)
  const originally =
    x.response?.status !== undefined
      ? String(x.response.status)
      : `no response (${String(x.response?.error ?? 'transport error')})`
  return { method: req.method, url: req.url, headers, ...(body !== undefined ? { body } : {}), originally }
}
