import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errorBody, principalOf, type AreaPlugin, type ReferenceContext } from '../context'
import { Deliverer, STALE_REPLICA_MS, STALE_REPLICA_WINDOW_MS } from './delivery'
import { eventInfos, examplePayload, isEventType, type EventType } from './events'
import { ownerOf, SubscriptionStore, type StoredSubscription } from './store'
import { toWire } from './wire'
import { raceWindow } from '../defects/concurrency'

const P = '/api/webhook'
/** Reference-only control route: emits an event for the caller's subscriptions. Not on real targets. */
export const EMIT_PATH = '/__reference/webhooks/emit'

/** A JSON body that failed to parse (kept so the handler decides the status). */
const UNPARSABLE = Symbol('unparsable')

function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string' || v === '') return false
  try {
    const u = new URL(v)
    return u.protocol === 'http:' || u.protocol === 'https:'
  } catch {
    return false
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** Webhook subscriptions (webhook-subscriptions.md §2-§7), scoped to the caller (tenant + username). */
export const webhooksArea: AreaPlugin = async (app, ctx) => {
  const store = new SubscriptionStore(
    ctx.ids,
    ctx.options.webhooks?.preexistingSubscriptions ?? 0,
    ctx.defects.has('webhooks-id-reused'),
  )
  const deliverer = new Deliverer(ctx)
  await app.register(async (inst) => {
    inst.removeContentTypeParser('application/json')
    inst.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string))
      } catch {
        done(null, UNPARSABLE)
      }
    })
    routes(inst, ctx, store)
    emitRoute(inst, ctx, store, deliverer)
  })
}

function routes(app: FastifyInstance, ctx: ReferenceContext, store: SubscriptionStore): void {
  const d = ctx.defects
  const owner = (req: FastifyRequest) => ownerOf(principalOf(req))
  const badBody = (req: FastifyRequest, reply: FastifyReply) => {
    if (req.body === UNPARSABLE && d.has('webhooks-invalid-json-500')) throw new Error('unexpected token in JSON')
    return reply
      .code(400)
      .send(errorBody(req.body === UNPARSABLE ? 'the body is not valid JSON' : 'the body must be a JSON object'))
  }
  const notFound = (reply: FastifyReply, id: string) => {
    if (d.has('webhooks-unknown-id-500')) throw new Error(`lookup of ${id} failed`)
    return reply.code(404).send(errorBody('subscription not found'))
  }
  const find = (req: FastifyRequest<{ Params: { id: string } }>) =>
    store.get(req.params.id, d.has('webhooks-get-not-scoped') ? undefined : owner(req))
  // what a subscription looked like when created (state-over-time defects)
  const asCreated = new Map<string, { event: string; url: string; updatedAt: Date }>()
  const listView = (s: StoredSubscription) => {
    const wire = toWire(s, ctx)
    const first = asCreated.get(s.id)
    if (d.has('webhooks-list-stale-after-update') && first)
      Object.assign(wire, { event: first.event, url: first.url, updatedAt: first.updatedAt.toISOString() })
    if (d.has('webhooks-list-created-at-is-updated-at')) wire.createdAt = wire.updatedAt
    if (d.has('webhooks-list-secret-differs')) wire.secret = otherSecret(wire.secret)
    return wire
  }

  app.get(`${P}/events`, async (_req, reply) => {
    const infos = eventInfos(d)
    // a literal no double holds (-1e999, read as -Infinity), written as text: JSON.stringify cannot write it
    if (d.has('outputs-event-example-not-finite'))
      return reply.type('application/json').send(JSON.stringify(infos).replace('"premium":500', '"premium":-1e999'))
    return infos
  })

  app.post(`${P}/subscription`, async (req, reply) => {
    const body = req.body
    if (!isObject(body)) return badBody(req, reply)
    if (Object.keys(body).length === 0 && d.has('webhooks-empty-object-accepted')) {
      return reply.code(201).send(toWire(store.create(owner(req), { event: '', url: '' }), ctx))
    }
    if (body.event === undefined && d.has('webhooks-missing-event-defaulted')) body.event = 'extracted'
    if (body.url === undefined && !d.has('webhooks-missing-url-accepted'))
      return reply.code(400).send(errorBody('url is required'))
    if (body.url !== undefined && !isHttpUrl(body.url))
      return reply.code(400).send(errorBody('url must be an absolute http(s) URL'))
    if (body.event === undefined) return reply.code(400).send(errorBody('event is required'))
    if (typeof body.event !== 'string' || (!isEventType(body.event) && !d.has('webhooks-unknown-event-accepted'))) {
      return reply.code(400).send(errorBody('event must be one of extracted, export, validation-success'))
    }
    const s = store.create(owner(req), { event: body.event, url: typeof body.url === 'string' ? body.url : '' })
    asCreated.set(s.id, { event: s.event, url: s.url, updatedAt: s.updatedAt })
    return reply.code(d.has('webhooks-create-200') ? 200 : 201).send(toWire(s, ctx))
  })

  app.get(`${P}/subscriptions`, async (req) => {
    const who = d.has('webhooks-list-not-scoped') ? undefined : owner(req)
    const live = store.list(who).filter((s) => !(d.has('webhooks-list-omits-extracted') && s.event === 'extracted'))
    const gone = d.has('webhooks-list-shows-deleted')
      ? store.deleted.filter((s) => who === undefined || s.owner === who)
      : []
    const all = [...live, ...gone].map(listView)
    // pages (issue 40): ?page=N&pageSize=M, N from 1, in creation order (a stable order, so a page walk is not shifted
    // by
    // the subscriptions made meanwhile); without them, every entry in one answer, in the order of the variation
    const q = (req.query ?? {}) as Record<string, unknown>
    const page = Number(q['page'] ?? 1)
    const size = Number(q['pageSize'] ?? 0)
    if (!(Number.isInteger(size) && size > 0 && Number.isInteger(page) && page >= 1))
      return ctx.options.webhooks?.listOrder === 'newest-first' ? all.reverse() : all
    // defect exercise-list-pages-overlap: a page after the first starts one entry early
    const from = (page - 1) * size - (page > 1 && d.has('exercise-list-pages-overlap') ? 1 : 0)
    return all.slice(from, from + size)
  })

  app.get<{ Params: { id: string } }>(`${P}/subscription/:id`, async (req, reply) => {
    const s = find(req) ?? (d.has('webhooks-deleted-still-readable') ? store.deletedById(req.params.id) : undefined)
    if (s && d.has('webhooks-read-touches-updated-at'))
      s.updatedAt = new Date(Math.max(Date.now(), s.updatedAt.getTime() + 1000))
    const first = s ? asCreated.get(s.id) : undefined
    if (s && first && d.has('webhooks-get-stale-after-update')) return { ...toWire(s, ctx), event: first.event }
    return s ? toWire(s, ctx) : notFound(reply, req.params.id)
  })

  app.put<{ Params: { id: string } }>(`${P}/subscription/:id`, async (req, reply) => {
    const revived = d.has('webhooks-deleted-revived-by-put') ? store.deletedById(req.params.id) : undefined
    if (revived) store.revive(revived)
    const s = find(req) ?? (d.has('webhooks-put-other-tenant') ? store.get(req.params.id, undefined) : undefined)
    if (!s) return notFound(reply, req.params.id)
    const body = req.body
    if (!isObject(body)) return badBody(req, reply)
    const refuse = (message: string) => {
      if (d.has('webhooks-refused-update-touches-updated-at'))
        s.updatedAt = new Date(Math.max(Date.now(), s.updatedAt.getTime() + 1))
      return reply.code(400).send(errorBody(message))
    }
    if (body.url !== undefined && !isHttpUrl(body.url)) return refuse('url must be an absolute http(s) URL')
    if (
      body.event !== undefined &&
      !isEventType(body.event) &&
      !(d.has('webhooks-put-invalid-event-applied') && typeof body.event === 'string')
    ) {
      return refuse('event must be one of extracted, export, validation-success')
    }
    if (d.has('webhooks-put-url-only-refused') && body.event === undefined) return refuse('event is required')
    if (d.has('webhooks-put-event-only-refused') && body.url === undefined) return refuse('url is required')
    if (d.has('concurrency-update-revives-deleted')) {
      // found, a wait, then saved: a delete done meanwhile is undone
      await raceWindow()
      store.revive(s)
    }
    const now = Date.now()
    if (typeof body.event === 'string') s.event = body.event
    else if (d.has('webhooks-put-resets-event')) s.event = 'extracted'
    if (typeof body.url === 'string') s.url = body.url
    else if (d.has('webhooks-put-wipes-url')) s.url = ''
    if (!d.has('webhooks-updated-at-frozen')) s.updatedAt = new Date(Math.max(now, s.updatedAt.getTime()))
    if (d.has('webhooks-created-at-changes')) s.createdAt = new Date(Math.max(now, s.createdAt.getTime() + 1000))
    return toWire(s, ctx)
  })

  app.delete<{ Params: { id: string } }>(`${P}/subscription/:id`, async (req, reply) => {
    const s = find(req) ?? (d.has('webhooks-delete-other-tenant') ? store.get(req.params.id, undefined) : undefined)
    if (!s) return notFound(reply, req.params.id)
    if (!d.has('webhooks-delete-keeps')) store.delete(s.id)
    if (d.has('webhooks-delete-result-string')) return { success: 'true' }
    return { success: !d.has('webhooks-delete-success-false') }
  })
}

function emitRoute(app: FastifyInstance, ctx: ReferenceContext, store: SubscriptionStore, deliverer: Deliverer): void {
  const d = ctx.defects
  /**
   * exercise-fanout-subscribers-cached: per caller, the subscribers of every event type as its first emission found
   * them, rebuilt only when it creates one.
   */
  const cached = new Map<string, { created: number; byEvent: Map<string, StoredSubscription[]> }>()
  const subscribersOf = (owner: string, event: EventType): StoredSubscription[] => {
    const fresh = () =>
      store.subscribers(
        owner,
        event,
        d.has('webhooks-wrong-event-delivered'),
        d.has('webhooks-notifications-follow-old-event'),
      )
    if (!d.has('exercise-fanout-subscribers-cached')) return fresh()
    const created = store.list(owner).length + store.deleted.filter((s) => s.owner === owner).length
    let c = cached.get(owner)
    if (!c || c.created !== created) {
      c = { created, byEvent: new Map() }
      for (const s of store.list(owner)) c.byEvent.set(s.event, [...(c.byEvent.get(s.event) ?? []), s])
      cached.set(owner, c)
    }
    return [...(c.byEvent.get(event) ?? [])]
  }
  app.post(EMIT_PATH, async (req, reply) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')
    const verified = m ? await ctx.tokens.verify(m[1]!) : undefined
    if (!verified?.ok)
      return reply
        .code(401)
        .send(errorBody("a valid bearer token is required: events go to the caller's subscriptions"))
    const body = req.body
    if (!isObject(body) || !isEventType(body.event))
      return reply
        .code(400)
        .send(errorBody('body: {"event": "extracted" | "export" | "validation-success", "data"?: {...}}'))
    const owner = ownerOf(verified.principal)
    let subs = subscribersOf(owner, body.event)
    // exercise-fanout-one-per-url: one notification per url and event, whatever the subscriptions at that url
    if (d.has('exercise-fanout-one-per-url')) subs = subs.filter((s, i) => subs.findIndex((o) => o.url === s.url) === i)
    if (d.has('webhooks-delivered-after-delete'))
      subs.push(...store.deleted.filter((s) => s.owner === owner && s.event === body.event))
    const data = notificationData(ctx, isObject(body.data) ? body.data : examplePayload(body.event))
    const ids = d.has('webhooks-no-delivery') ? subs.map(() => 'not-sent') : deliverer.notify(subs, body.event, data)
    if (d.has('webhooks-delivered-after-delete-late')) {
      // a stale replica of the subscriptions, read by a second delivery worker: recently deleted ones still get events,
      // late
      const stale = store.deleted.filter(
        (s) => s.owner === owner && s.event === body.event && Date.now() - (s.deletedAt ?? 0) < STALE_REPLICA_WINDOW_MS,
      )
      deliverer.notify(stale, body.event, data, STALE_REPLICA_MS)
    }
    return reply.code(202).send({ event: body.event, deliveries: ids.length })
  })
}

/** A secret of the same form with other digits (the webhooks-list-secret-differs defect). */
function otherSecret(secret: unknown): unknown {
  const flip = (key: string) => key.replace(/[0-9a-f]/g, (c) => ((parseInt(c, 16) + 1) % 16).toString(16))
  if (typeof secret === 'string') return flip(secret)
  if (isObject(secret) && typeof secret['key'] === 'string') return { ...secret, key: flip(secret['key']) }
  return secret
}

/**
 * The data a notification carries, with the content defects and the notification-extra-keys variation applied:
 * a key renamed, numbers as strings, nested objects flattened into dotted keys, or extra keys at every level.
 */
export function notificationData(ctx: ReferenceContext, data: Record<string, unknown>): Record<string, unknown> {
  const d = ctx.defects
  let out: Record<string, unknown> = structuredClone(data)
  if (d.has('webhooks-notification-key-renamed'))
    out = Object.fromEntries(
      Object.entries(out).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
    )
  if (d.has('webhooks-notification-number-as-string'))
    out = mapLeaves(out, (v) => (typeof v === 'number' ? String(v) : v)) as Record<string, unknown>
  if (d.has('webhooks-notification-nesting-flattened')) {
    out = Object.fromEntries(
      Object.entries(out).flatMap(([k, v]) =>
        isObject(v) ? Object.entries(v).map(([k2, v2]) => [`${k}.${k2}`, v2]) : [[k, v]],
      ),
    )
  }
  if (ctx.options.webhooks?.notificationExtraKeys) out = withExtraKeys(out) as Record<string, unknown>
  return out
}

function mapLeaves(v: unknown, f: (leaf: unknown) => unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => mapLeaves(x, f))
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapLeaves(x, f)]))
  return f(v)
}

function withExtraKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withExtraKeys)
  if (!isObject(v)) return v
  return {
    ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withExtraKeys(x)])),
    traceId: 'trace-7f3a',
    schemaVersion: 2,
  }
}
