import fc from 'fast-check'
import { factsOf, operation } from '../../../common/operations'
import type { Resource } from '../../../common/operation-facts'
import type { OperationId } from '../../../common/operation-ids'
import type { TargetConfig, UserCredentials } from '../../../common/config/types'
import type { HttpMethod, HttpResult } from '../../../helpers/client/http/types'
import { getPointer } from '../../../helpers/client/data/json-pointer'
import { exerciseSettings } from '../../../common/config/exercise-settings'
import { takeExpiredToken, expiryLeewaySeconds, msUntilExpired } from '../../../helpers/client/auth/expiring-token'
import { exerciseCells, type Dimension } from '../../../helpers/oracle/exercise-model'
import { exerciseProfile } from '../../../helpers/oracle/exercise-tracker'
import { probesFor } from '../../../helpers/checks/probes/requests'
import {
  perform,
  QUOTE_STATES,
  type QuoteStateName,
  type TableOperation,
} from '../../../helpers/checks/sales/state-table'
import { setPointer } from '../../../helpers/checks/sales/json-set'
import { issuePolicy } from '../../../helpers/checks/policies/scenario'
import { addDays, daysBetween } from '../../../helpers/checks/policies/dates'
import { roundMoney } from '../../../helpers/checks/policies/money'
import { deepMerge, fillTemplate } from '../../../helpers/checks/policies/template'
import { mtaIssued, newQuote, policyOrNew } from './steps'
import type { ExploreAction, World } from './world'

/**
 * Explore's steps drawn from the exercise model (issue 40, deliverable 3): every applicable cell of the model for the
 * target's profile (helpers/oracle/exercise-model.ts, the catalogue's exercise dimensions) is an action that does what
 * the cell names: the operation in that state of its resource, by that caller, over a list of that size, re-read after
 * that write, or the identity service's login, refresh and refreshed token. The model's invariants judge every answer
 * of the step as they do every other step's; the tracker measures which cells the step did reach, and explore reports
 * the figure (runner/commands/explore/explore.ts). Each action makes what it needs on the sequence's own resources.
 */

/** The cells of the model that apply to this target's profile, in the model's order. */
export function exploreCells(config: TargetConfig): string[] {
  return exerciseCells(exerciseProfile(config))
    .filter((c) => !c.notApplicable)
    .map((c) => c.id)
}

/** A step per applicable cell, drawn uniformly among them (shrinking goes towards the model's first cells). */
export function cellArbitrary(config: TargetConfig): fc.Arbitrary<ExploreAction> | undefined {
  const cells = exploreCells(config)
  return cells.length === 0 ? undefined : fc.constantFrom(...cells).map(cellAction)
}

/** The quote operations of the state table a quote write is. */
const TABLE_OP: Partial<Record<OperationId, TableOperation>> = {
  'sales.quote.update': 'update',
  'sales.quote.calculate': 'calculate',
  'sales.quote.referral': 'referral',
  'sales.quote.decline': 'decline',
  'sales.quote.bind': 'bind',
  'sales.quote.issue': 'issue',
  'sales.documents.generate': 'documents',
}

export function cellAction(cell: string): ExploreAction {
  const [op, rest = ''] = cell.split('|') as [string, string?]
  const [dimension, cls = ''] = rest.split('=') as [Dimension, string?]
  return { name: `exercise ${cell}`, act: (w) => exercise(w, op, dimension, cls) }
}

async function exercise(w: World, op: string, dimension: Dimension, cls: string): Promise<void> {
  if (dimension === 'identity') return identity(w, op, cls)
  const id = op as OperationId
  if (dimension === 'caller') return asCaller(w, id, cls)
  if (dimension === 'state') return inState(w, id, cls)
  if (dimension === 'multiplicity') return ofSize(w, id, cls)
  if (dimension === 'reread') return reread(w, id, cls)
  if (dimension === 'fanout') return fanout(w, cls)
}

/**
 * Events emitted over several subscriptions of the sequence's caller: three of one event type, two of them at one url,
 * and the event emitted while one of them is updated (updated-while-emitting) or deleted (deleted-while-emitting).
 */
async function fanout(w: World, cls: string): Promise<void> {
  const trigger = (
    w.t.config.extensions['webhooks'] as
      | { delivery?: { trigger?: { method?: HttpMethod; path?: string; body?: unknown } } }
      | undefined
  )?.delivery?.trigger
  if (!trigger?.path) return
  const url = w.subs.url(`cell-fan-${w.subIds.length}`)
  const made: string[] = []
  for (const at of [url, url, w.subs.url(`cell-fan-other-${w.subIds.length}`)]) {
    const c = await w.subs.create('export', at)
    if (c.id !== undefined) made.push(c.id)
  }
  w.subIds.push(...made)
  const fill = (v: unknown): unknown =>
    typeof v === 'string'
      ? v.split('{event}').join('export')
      : Array.isArray(v)
        ? v.map(fill)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
          : v
  const emit = () =>
    w.t.webhooks.call({
      method: trigger.method ?? 'POST',
      path: trigger.path!,
      json: fill(trigger.body ?? { event: '{event}' }),
    })
  const id = made.at(-1)
  if (id === undefined || cls === 'several-per-event' || cls === 'several-per-url') {
    await emit()
    return
  }
  await Promise.all([
    emit(),
    cls === 'deleted-while-emitting'
      ? w.t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id } })
      : w.t.webhooks.call({ op: 'webhooks.subscription.update', params: { id }, json: { event: 'extracted' } }),
  ])
}

/** The sequence's resource of a kind (made when it has none), or undefined when the sequence cannot make one here. */
async function resourceOf(w: World, r: Resource): Promise<string | undefined> {
  if (r === 'quote') return w.quoteIds.at(-1) ?? (await newQuote(w, 'draft'))
  if (r === 'policy') return (await policyOrNew(w, w.policies.length))?.id
  if (r === 'subscription') return w.subIds.at(-1) ?? (await newSubscription(w))
  if (r === 'request') return w.requests.at(-1)?.id
  if (r === 'document') return w.documents.at(-1)
  if (r === 'invoice') return [...w.allocations].at(-1)
  return undefined
}

async function newSubscription(w: World, label = 'cell'): Promise<string | undefined> {
  const c = await w.subs.create('export', w.subs.url(`${label}${w.subIds.length}`))
  if (c.id !== undefined) w.subIds.push(c.id)
  return c.id
}

/** The probe of an operation (a well-formed request) on the sequence's own resource where the path names one. */
async function ownCall(w: World, op: OperationId, id?: string) {
  const probe = probesFor(w.t).call(operation(op))
  const f = factsOf(op)
  const own = id ?? (f.idParam ? await resourceOf(w, f.resource) : undefined)
  const params = f.idParam && own !== undefined ? { ...probe.params, [f.idParam]: own } : probe.params
  const json = op === 'sales.quote.mta' ? await mtaBody(w, own) : probe.json
  return {
    ...probe,
    params,
    ...(json !== undefined ? { json } : {}),
    ...(op === 'sales.documents.download' ? { headers: { accept: '*/*' } } : {}),
  }
}

function client(w: World, op: OperationId) {
  return operation(op).service === 'webhooks' ? w.t.webhooks : w.t.sales
}

async function asCaller(w: World, op: OperationId, cls: string): Promise<void> {
  const call = await ownCall(w, op)
  const c = client(w, op)
  if (cls === 'owner') await c.call(call)
  else if (cls === 'no-token') await c.call({ ...call, as: 'anonymous' })
  else if (cls === 'malformed-token') await c.call({ ...call, bearer: 'not-a-jwt' })
  else if (cls === 'expired-token') {
    const token = await takeExpiredToken(w.t)
    if (token && msUntilExpired(token, expiryLeewaySeconds(w.t)) === 0) await c.call({ ...call, bearer: token.token })
  } else {
    const as = w.t.user(cls === 'restricted' ? 'restricted' : 'otherTenant')
    if (as) await c.call({ ...call, as })
  }
}

/**
 * The MTA body of a policy of the sequence: its issued payload with the profile's MTA change, effective in its term.
 */
async function mtaBody(w: World, policyId: string | undefined): Promise<unknown> {
  const policy = w.policies.find((p) => p.id === policyId)
  const payload = policy ? w.payloads.get(policy.quoteId) : undefined
  if (!policy || !payload) return undefined
  const s = w.api.s
  const links = await w.api.links(policy.id)
  const inception = getPointer(links.body, s.links.dateInceptionPointer)
  const expiry = getPointer(links.body, s.links.dateExpiryPointer)
  if (typeof inception !== 'string' || typeof expiry !== 'string') return undefined
  const vars = w.api.vars({
    policyId: policy.id,
    dateEffective: addDays(
      inception,
      Math.min(s.mta.effectiveAfterDays, Math.max(0, daysBetween(inception, expiry) - 1)),
    ),
  })
  const body = structuredClone(payload)
  for (const [ptr, v] of Object.entries(fillTemplate(s.mta.set, vars) as Record<string, unknown>))
    setPointer(body, ptr, v)
  return deepMerge(body, fillTemplate(s.mta.body, vars))
}

/** The policy's own write of a re-read class or a state (an MTA issued, a technical change, a termination). */
async function policyWrite(
  w: World,
  policyId: string,
  what: 'changed' | 'technically-changed' | 'terminated',
): Promise<void> {
  const api = w.api
  const s = api.s
  if (what === 'technically-changed') {
    const body: Record<string, unknown> = {}
    for (const [ptr, v] of Object.entries(fillTemplate(s.technicalChange.set, api.vars()) as Record<string, unknown>))
      setPointer(body, ptr, v)
    await api.dataChange(policyId, body)
    return
  }
  if (what === 'terminated') {
    const links = await api.links(policyId)
    const inception = getPointer(links.body, s.links.dateInceptionPointer)
    const expiry = getPointer(links.body, s.links.dateExpiryPointer)
    const premium = api.readTotals(await api.totals(policyId)).premium
    if (typeof inception !== 'string' || typeof expiry !== 'string' || premium === undefined) return
    await api.terminate(policyId, {
      date: addDays(inception, Math.min(s.termination.afterDays, Math.max(0, daysBetween(inception, expiry) - 1))),
      sum: roundMoney(premium * 0.25),
    })
    return
  }
  const body = await mtaBody(w, policyId)
  if (body === undefined) return
  await mtaIssued(w, body)
}

/** A new policy of the sequence in a policy state. */
async function policyIn(w: World, state: string): Promise<string | undefined> {
  await newQuote(w, 'issued')
  const policy = w.policies.at(-1)?.id
  if (policy !== undefined && state !== 'issued')
    await policyWrite(w, policy, state as 'changed' | 'technically-changed' | 'terminated')
  return policy
}

/**
 * A payment of half the first invoice of the policy, allocated to it; the period totals read before and after
 * (PL-INV-002).
 */
async function allocateOn(w: World, policyId: string): Promise<void> {
  const api = w.api
  await api.totals(policyId)
  try {
    await allocateFirst(w, policyId)
  } finally {
    await api.totals(policyId)
  }
}

async function allocateFirst(w: World, policyId: string): Promise<void> {
  const api = w.api
  const first = api.readInvoices(await api.invoices(policyId))?.[0]
  if (!first || first.amount === undefined || first.invoicenumber === '') return
  const amount = roundMoney(first.amount * 0.5)
  const paymentId = api.paymentIdOf(await api.insertPayment(amount, new Date().toISOString().slice(0, 10)))
  if (paymentId === undefined) return
  for (const e of api.eventIdsOf(await api.allocate(paymentId, [{ invoicenumber: first.invoicenumber, amount }])) ?? [])
    w.allocations.add(e)
}

async function inState(w: World, op: OperationId, cls: string): Promise<void> {
  const x = factsOf(op).exercise
  if (x.stateOf === 'quote') {
    if (!(QUOTE_STATES as readonly string[]).includes(cls)) return
    const quoteId = await newQuote(w, cls as QuoteStateName)
    const table = TABLE_OP[op]
    if (table) {
      await w.flow.waitActions(quoteId)
      await perform(w.flow, quoteId, table, w.t.config.product)
    } else await w.t.sales.call(await ownCall(w, op, quoteId))
    return
  }
  if (x.stateOf === 'policy') {
    const policyId = await policyIn(w, cls)
    if (policyId === undefined) return
    if (op === 'sales.payments.allocate') return allocateOn(w, policyId)
    if (op === 'sales.termination.terminate') return policyWrite(w, policyId, 'terminated')
    if (op === 'sales.policy.data-change') return policyWrite(w, policyId, 'technically-changed')
    await w.t.sales.call(await ownCall(w, op, policyId))
    return
  }
  if (x.stateOf === 'subscription') {
    const id = await newSubscription(w)
    if (id === undefined) return
    if (cls !== 'live')
      await w.t.webhooks.call(
        cls === 'deleted'
          ? { op: 'webhooks.subscription.delete', params: { id } }
          : { op: 'webhooks.subscription.update', params: { id }, json: { url: w.subs.url('cell-moved') } },
      )
    await w.t.webhooks.call(await ownCall(w, op, id))
  }
}

/** A view re-read after the write its class names: read, the write, read again. */
async function reread(w: World, op: OperationId, cls: string): Promise<void> {
  if (cls === 'after-update' || cls === 'after-delete') {
    const id = await newSubscription(w)
    if (id === undefined) return
    const read = async () =>
      w.t.webhooks.call(
        op === 'webhooks.subscriptions.list' ? { op } : { op: 'webhooks.subscription.get', params: { id } },
      )
    await read()
    await w.t.webhooks.call(
      cls === 'after-delete'
        ? { op: 'webhooks.subscription.delete', params: { id } }
        : { op: 'webhooks.subscription.update', params: { id }, json: { url: w.subs.url('cell-reread') } },
    )
    await read()
    return
  }
  const policyId = await policyIn(w, 'issued')
  if (policyId === undefined) return
  const read = async () => w.t.sales.call(await ownCall(w, op, policyId))
  await read()
  await policyWrite(
    w,
    policyId,
    cls === 'after-mta' ? 'changed' : cls === 'after-technical-change' ? 'technically-changed' : 'terminated',
  )
  await read()
}

async function ofSize(w: World, op: OperationId, cls: string): Promise<void> {
  if (op === 'webhooks.subscriptions.list') return cls === 'over-page' ? overPage(w) : smallLists(w)
  // a schedule of 1 (annual) or 12 (monthly) entries: a policy paying so, its quote's schedule, invoices, custom view
  const x = exerciseSettings(w.t.config)
  const p = await issuePolicy(w.flow, w.api, {
    label: `explore-cell-${w.quoteIds.length}`,
    set: cls === '12' ? x.monthlySet : x.annualSet,
  })
  w.quoteIds.push(p.quoteId)
  w.payloads.set(p.quoteId, p.issued.payload)
  w.requests.push({ id: p.issued.requestId, quoteId: p.quoteId })
  w.policies.push({ id: p.policyId, quoteId: p.quoteId })
  if (op === 'sales.quote.installments') await w.flow.installments(p.quoteId)
  else if (op === 'sales.policy.invoices') await w.api.invoices(p.policyId)
  else {
    const identity =
      (w.t.config.features['customer_identity'] as { params?: Record<string, string> } | undefined)?.params ?? {}
    if (Object.keys(identity).length > 0)
      await w.api.customView(
        p.policyId,
        Object.fromEntries(
          Object.entries(identity).map(([name, ptr]) => [name, String(getPointer(p.data, ptr) ?? '')]),
        ),
      )
  }
}

/** A second caller's own list: empty, one entry, two, empty again (its subscriptions deleted in the step). */
async function smallLists(w: World): Promise<void> {
  const as: UserCredentials | undefined = w.t.user('restricted') ?? w.t.user('otherTenant')
  if (!as) return
  const list = () => w.t.webhooks.call({ op: 'webhooks.subscriptions.list', as })
  await list()
  const made: string[] = []
  try {
    for (const n of [1, 2]) {
      const res: HttpResult = await w.t.webhooks.call({
        op: 'webhooks.subscription.create',
        json: { event: 'export', url: w.subs.url(`cell-small-${n}`) },
        as,
      })
      const id = (res.body as { id?: unknown } | undefined)?.id
      if (typeof id === 'string' || typeof id === 'number') made.push(String(id))
      await list()
    }
  } finally {
    for (const id of made) await w.t.webhooks.call({ op: 'webhooks.subscription.delete', params: { id }, as })
  }
  await list()
}

/** More live subscriptions of the sequence's caller than a page holds, the list read through every page. */
async function overPage(w: World): Promise<void> {
  const x = exerciseSettings(w.t.config)
  const size = x.listPage?.size ?? 50
  const live = w.subIds.length
  await Promise.all(
    Array.from({ length: Math.max(0, size + 1 - live) }, (_, i) => newSubscription(w, `cell-vol-${i}-`)),
  )
  const page = x.listPage
  if (!page) {
    await w.t.webhooks.call({ op: 'webhooks.subscriptions.list' })
    return
  }
  for (let n = page.firstPage, read = size; read >= size && n < page.firstPage + 10; n += 1) {
    const res = await w.t.webhooks.call({
      op: 'webhooks.subscriptions.list',
      query: { [page.pageParam]: n, [page.sizeParam]: size },
    })
    const body = res.body as unknown
    read = Array.isArray(body) ? body.length : 0
  }
}

/**
 * The identity service: a login at a tenant's path with a role's credentials; a refresh, its token and the old one
 * used.
 */
async function identity(w: World, op: string, cls: string): Promise<void> {
  const t = w.t
  const login = (user: UserCredentials, tenant: string) =>
    t.identity.call({
      method: 'POST',
      path: t.config.auth.loginPath,
      params: { tenant },
      json: { username: user.username, password: user.password },
      as: 'anonymous',
    })
  if (op === 'identity.login') {
    const [role = '', at = ''] = cls.split('@')
    const user = t.user(role as 'primary' | 'restricted' | 'otherTenant')
    if (user) await login(user, at === 'own' ? user.tenant : at)
    return
  }
  const primary = t.config.users.primary
  const res = await login(primary, primary.tenant)
  const token = (body: unknown, refresh: boolean) => {
    for (const p of t.config.auth.tokenPointers) {
      const v = getPointer(body, refresh ? p.replace(/access_token$/, 'refresh_token') : p)
      if (typeof v === 'string') {
        t.redactor.addSecret(v)
        return v
      }
    }
    return undefined
  }
  const access = token(res.body, false)
  const refreshToken = token(res.body, true)
  if (!access || !refreshToken || !t.config.auth.refreshPath) return
  const refreshed = await t.identity.call({
    method: 'POST',
    path: t.config.auth.refreshPath,
    params: { tenant: primary.tenant },
    json: { refresh_token: refreshToken, username: primary.username },
    as: 'anonymous',
  })
  const next = token(refreshed.body, false)
  const schemes = (bearer: string) =>
    t.sales.call({
      op: 'sales.schemes.get',
      params: { type: w.flow.settings.schemaType, name: t.config.product },
      bearer,
    })
  if (next && cls !== 'refresh') await schemes(next)
  if (cls === 'old-token-after-refresh') await schemes(access)
}
