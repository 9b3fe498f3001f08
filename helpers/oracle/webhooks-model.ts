import { escapePointerToken } from '../client/data/json-pointer'
import type { OperationId } from '../../common/operations'
import type { HttpResult } from '../client/http/types'
import type { InvariantId } from './invariants'
import { firstShown } from './reported'
import type { Violation } from './invariants'

/** One subscription as the run made it: what its reads must show. */
export interface SubscriptionState {
  id: string
  owner: string
  event: unknown
  url: unknown
  createdAt: unknown
  updatedAt: unknown
  deleted: boolean
  /** Client clock (ms) when the last successful write was answered. */
  lastWriteAt: number
  /** The answer that set the expectation. */
  setBy: HttpResult
  /** Overlapping writes left it unknown until the next clean read. */
  unsure: boolean
  /**
   * The whole object its own last answer showed (create, update or GET since the last write): what a list entry must
   * be.
   */
  shown?: Json
  /**
   * The wrong values already reported, per view (read, update, list) and field: the same wrong value shown again in
   * the same view is the breach already reported, not a new one (one breach, one report).
   */
  reported?: Set<string>
}

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const idOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
const show = (v: unknown) => JSON.stringify(v)
const tenantOf = (owner: string) => owner.split('/')[0]

/** Where two JSON values differ: each JSON pointer and how (values are not shown: a secret may be among them). */
export function jsonDifferences(expected: unknown, actual: unknown, path = ''): { path: string; what: string }[] {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
  if (kind(expected) !== kind(actual))
    return [
      { path: path || '/', what: actual === undefined ? 'missing' : `${kind(actual)} instead of ${kind(expected)}` },
    ]
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length)
      return [{ path: path || '/', what: `${actual.length} items instead of ${expected.length}` }]
    return expected.flatMap((v, i) => jsonDifferences(v, actual[i], `${path}/${i}`))
  }
  if (isObj(expected) && isObj(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort()
    return keys.flatMap((k) => {
      const p = `${path}/${escapePointerToken(k)}`
      if (!(k in actual)) return [{ path: p, what: 'missing' }]
      if (!(k in expected)) return [{ path: p, what: 'not in its read' }]
      return jsonDifferences(expected[k], actual[k], p)
    })
  }
  return expected === actual ? [] : [{ path: path || '/', what: 'another value' }]
}

/** Resolution of a timestamp: a second when it has no fraction, else a millisecond. */
export function resolutionMs(stamp: unknown): number {
  return typeof stamp === 'string' && /T\d\d:\d\d:\d\d\.\d/.test(stamp) ? 1 : 1000
}

export interface WebhookCall {
  op: OperationId
  id?: string
  owner?: string
  json?: unknown
  beganAt: number
  /** Another write on the same subscription overlapped this call. */
  overlapped: boolean
  /**
   * A list read with query parameters (a page, a limit: profile extensions.exercise.listPage): it need not hold every
   * live subscription.
   */
  partial?: boolean
}

/** Subscriptions of this run (webhook-subscriptions.md §2, §4): event, url, createdAt, updatedAt, live or deleted. */
export class WebhooksModel {
  readonly subscriptions = new Map<string, SubscriptionState>()

  /** Judges one answer and learns from it. Returns the invariants evaluated and the violations. */
  observe(call: WebhookCall, res: HttpResult, evaluated: Set<InvariantId>, out: Violation[]): void {
    const v = (invariant: InvariantId, expected: string, actual: string, setBy?: HttpResult) =>
      out.push({ invariant, expected, actual, res, ...(setBy ? { setBy } : {}) })
    const ok = res.status >= 200 && res.status < 300
    const known = call.id !== undefined ? this.subscriptions.get(call.id) : undefined
    // scoping: another caller's subscription
    if (known && call.owner !== undefined && known.owner !== call.owner && call.op !== 'webhooks.subscription.create') {
      // another tenant must never reach it; another user of the same tenant: the specs do not say (not judged)
      if (tenantOf(known.owner) === tenantOf(call.owner)) return
      evaluated.add('WH-INV-006')
      if (ok)
        v(
          'WH-INV-006',
          `a 4xx: subscription ${known.id} belongs to another tenant's caller`,
          `status ${res.status}`,
          known.setBy,
        )
      // the write happened all the same: what the subscription holds is unknown until the owner's next clean read,
      // which
      // is not blamed for this breach (one defect, one failure)
      if (ok && (call.op === 'webhooks.subscription.update' || call.op === 'webhooks.subscription.delete'))
        known.unsure = true
      return
    }
    switch (call.op) {
      case 'webhooks.subscription.create': {
        if (!ok || !isObj(res.body)) return
        const id = idOf(res.body['id'])
        if (id === undefined || call.owner === undefined) return
        const sent = isObj(call.json) ? call.json : {}
        evaluated.add('WH-INV-005')
        for (const f of ['event', 'url'] as const) {
          if (sent[f] !== undefined && res.body[f] !== sent[f])
            v('WH-INV-005', `${f} ${show(sent[f])} as sent`, `${f} ${show(res.body[f])}`)
        }
        this.subscriptions.set(id, {
          id,
          owner: call.owner,
          event: res.body['event'],
          url: res.body['url'],
          createdAt: res.body['createdAt'],
          updatedAt: res.body['updatedAt'],
          deleted: false,
          lastWriteAt: Date.now(),
          setBy: res,
          unsure: false,
          shown: res.body,
        })
        return
      }
      case 'webhooks.subscription.get':
        if (!known || call.owner === undefined) return
        evaluated.add('WH-INV-002')
        if (known.deleted) {
          // a call that overlapped the delete may have been served before it (the run's history judges that order:
          // WH-INV-050)
          if (ok && !call.overlapped)
            v('WH-INV-002', `404: subscription ${known.id} was deleted`, `status ${res.status}`, known.setBy)
          return
        }
        if (res.status === 404 && !known.unsure && !call.overlapped)
          v('WH-INV-002', `200: subscription ${known.id} is live`, 'status 404', known.setBy)
        if (res.status === 200 && isObj(res.body)) {
          this.compare(known, res.body, call, res, evaluated, out, 'read')
          if (!known.unsure && !call.overlapped) known.shown = res.body
        }
        return
      case 'webhooks.subscription.update': {
        if (!known || call.owner === undefined) return
        evaluated.add('WH-INV-002')
        if (known.deleted) {
          // a call that overlapped the delete may have been served before it (the run's history judges that order:
          // WH-INV-050)
          if (ok && !call.overlapped)
            v('WH-INV-002', `404: subscription ${known.id} was deleted`, `status ${res.status}`, known.setBy)
          return
        }
        if (res.status === 404 && !known.unsure && !call.overlapped)
          v('WH-INV-002', `200: subscription ${known.id} is live`, 'status 404', known.setBy)
        if (!ok) return // refused: nothing changes (the next read shows it)
        if (call.overlapped) {
          known.unsure = true
          delete known.shown
          return
        }
        const sent = isObj(call.json) ? call.json : {}
        const body = isObj(res.body) ? res.body : {}
        const expected = {
          ...known,
          event: sent['event'] !== undefined ? sent['event'] : known.event,
          url: sent['url'] !== undefined ? sent['url'] : known.url,
        }
        if (!known.unsure) {
          evaluated.add('WH-INV-004')
          const later = Date.parse(String(body['updatedAt']))
          const before = Date.parse(String(known.updatedAt))
          const apart = call.beganAt - known.lastWriteAt > resolutionMs(known.updatedAt)
          if (!(later > before) && apart)
            v(
              'WH-INV-004',
              `updatedAt later than ${show(known.updatedAt)} (the update came ${call.beganAt - known.lastWriteAt} ms ` +
                `after the previous write)`,
              `updatedAt ${show(body['updatedAt'])}`,
              known.setBy,
            )
          else if (later < before)
            v(
              'WH-INV-004',
              `updatedAt not earlier than ${show(known.updatedAt)}`,
              `updatedAt ${show(body['updatedAt'])}`,
              known.setBy,
            )
          this.compare({ ...expected, updatedAt: body['updatedAt'] }, body, call, res, evaluated, out, 'update')
        }
        // a new expectation: a wrong value shown after it is a new breach, even one reported before
        Object.assign(known, {
          event: expected.event,
          url: expected.url,
          updatedAt: body['updatedAt'],
          lastWriteAt: Date.now(),
          setBy: res,
          unsure: false,
          reported: undefined,
          shown: body,
          ...(known.unsure ? { createdAt: body['createdAt'] } : {}),
        })
        return
      }
      case 'webhooks.subscription.delete':
        if (!known || call.owner === undefined) return
        evaluated.add('WH-INV-002')
        if (known.deleted) {
          if (ok && !call.overlapped)
            v('WH-INV-002', `404: subscription ${known.id} was already deleted`, `status ${res.status}`, known.setBy)
          return
        }
        if (ok) Object.assign(known, { deleted: true, unsure: false, setBy: res })
        return
      case 'webhooks.subscriptions.list':
        if (res.status !== 200 || !Array.isArray(res.body) || call.owner === undefined) return
        this.judgeList(call, res, evaluated, out)
        return
    }
  }

  private judgeList(call: WebhookCall, res: HttpResult, evaluated: Set<InvariantId>, out: Violation[]): void {
    const listed = new Map<string, Json>()
    for (const item of res.body as unknown[])
      if (isObj(item) && idOf(item['id']) !== undefined) listed.set(idOf(item['id'])!, item)
    for (const s of this.subscriptions.values()) {
      const item = listed.get(s.id)
      if (s.owner !== call.owner) {
        if (tenantOf(s.owner) === tenantOf(call.owner!)) continue
        evaluated.add('WH-INV-006')
        if (item)
          out.push({
            invariant: 'WH-INV-006',
            expected: `subscription ${s.id} of another caller not listed`,
            actual: 'listed',
            res,
            setBy: s.setBy,
          })
        continue
      }
      if (s.unsure || call.overlapped) continue
      if (s.deleted) {
        evaluated.add('WH-INV-002')
        if (item)
          out.push({
            invariant: 'WH-INV-002',
            expected: `deleted subscription ${s.id} not listed`,
            actual: `listed: ${show(item)}`,
            res,
            setBy: s.setBy,
          })
        continue
      }
      if (!item && call.partial) continue
      evaluated.add('WH-INV-001')
      if (!item) {
        out.push({
          invariant: 'WH-INV-001',
          expected: `live subscription ${s.id} listed`,
          actual: 'not listed',
          res,
          setBy: s.setBy,
        })
        continue
      }
      for (const f of ['event', 'url', 'createdAt', 'updatedAt'] as const) {
        if (item[f] !== s[f] && firstShown(s, `list|${f}`, item[f]))
          out.push({
            invariant: 'WH-INV-001',
            expected: `subscription ${s.id} listed with ${f} ${show(s[f])}`,
            actual: `${f} ${show(item[f])}`,
            res,
            setBy: s.setBy,
          })
      }
      if (!s.shown) continue
      evaluated.add('WH-INV-040')
      const differ = jsonDifferences(s.shown, item)
      // the fields WH-INV-001 names are its finding already; the others (the secret, any other field) are this rule's
      const own = differ.filter((d) => !['/event', '/url', '/createdAt', '/updatedAt'].includes(d.path))
      if (
        own.length > 0 &&
        firstShown(
          s,
          'list-entry',
          own.map((d) => d.path),
        )
      ) {
        out.push({
          invariant: 'WH-INV-040',
          expected: `the list entry of subscription ${s.id} is the object its own read shows`,
          actual: own.map((d) => `${d.path}: ${d.what}`).join('; '),
          res,
          setBy: s.setBy,
        })
      }
    }
  }

  /** A read (or an update's answer) against the model: event, url, createdAt, updatedAt. */
  private compare(
    s: Pick<SubscriptionState, 'id' | 'event' | 'url' | 'createdAt' | 'updatedAt' | 'setBy' | 'unsure'>,
    body: Json,
    call: WebhookCall,
    res: HttpResult,
    evaluated: Set<InvariantId>,
    out: Violation[],
    what: 'read' | 'update',
  ): void {
    const known = this.subscriptions.get(s.id)!
    if (s.unsure || call.overlapped) {
      if (what === 'read' && !call.overlapped)
        Object.assign(known, {
          event: body['event'],
          url: body['url'],
          createdAt: body['createdAt'],
          updatedAt: body['updatedAt'],
          unsure: false,
          setBy: res,
        })
      return
    }
    evaluated.add('WH-INV-003').add('WH-INV-005')
    if (what === 'read') evaluated.add('WH-INV-004')
    const first = (f: string) => firstShown(known, `${what}|${f}`, body[f])
    for (const f of ['event', 'url'] as const)
      if (body[f] !== s[f] && first(f))
        out.push({
          invariant: 'WH-INV-005',
          expected: `${f} ${show(s[f])}`,
          actual: `${f} ${show(body[f])}`,
          res,
          setBy: s.setBy,
        })
    if (body['createdAt'] !== s.createdAt && first('createdAt'))
      out.push({
        invariant: 'WH-INV-003',
        expected: `createdAt ${show(s.createdAt)}`,
        actual: `createdAt ${show(body['createdAt'])}`,
        res,
        setBy: s.setBy,
      })
    if (what === 'read' && body['updatedAt'] !== s.updatedAt && first('updatedAt'))
      out.push({
        invariant: 'WH-INV-004',
        expected: `updatedAt ${show(s.updatedAt)} (no successful update since)`,
        actual: `updatedAt ${show(body['updatedAt'])}`,
        res,
        setBy: s.setBy,
      })
  }
}
