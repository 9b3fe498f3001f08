/**
 * The field probe: a hook on every JSON answer of a catalogue operation and on every webhook notification, for the
 * field-perturbation mutation (scripts/mutation/fields/, docs/mutation.md "Field sensitivity"). The harness starts a
 * reference in its own process with `fieldProbe` (reference option): a recorder of every (operation, status, path) in
 * the clean run, or a perturber that changes one of them. Not a benign variation, and not reachable from the CLI:
 * nothing is hooked when the option is absent.
 */
import type { FastifyInstance } from 'fastify'
import { matchOperation } from '../../common/operations'
import type { ReferenceContext } from '../context'
import type { FieldSite } from '../options'

/** The pseudo-operation of a webhook notification (the reference's POST to a subscriber): its status is `sent`. */
export const NOTIFICATION_OPERATION = 'webhooks.notification'
export const NOTIFICATION_STATUS = 'sent'

export type { FieldProbe, FieldSite } from '../options'

function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^application\/([\w.+-]+\+)?json\b/i.test(contentType)
}

/** One onSend hook that hands every JSON answer of a catalogue operation to the probe (when the option is set). */
export function registerFieldProbe(app: FastifyInstance, ctx: ReferenceContext): void {
  const probe = ctx.options.fieldProbe
  if (!probe) return
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/__reference/')) return payload
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload
    if (payload.length === 0 || !isJson(reply.getHeader('content-type'))) return payload
    const path = req.url.split('?')[0] ?? ''
    const op = matchOperation(req.method, path)
    if (!op) return payload
    let parsed: unknown
    try {
      parsed = JSON.parse(payload.toString())
    } catch {
      return payload
    }
    const out = probe.body({ operation: op.id, status: reply.statusCode, exchange: `${req.method} ${path}` }, parsed)
    return out === parsed ? payload : JSON.stringify(out ?? null)
  })
}

/** A notification's body as the probe has it (unchanged without a probe); called before the body is signed. */
export function probedNotification(ctx: ReferenceContext, url: string, body: Record<string, unknown>): unknown {
  const probe = ctx.options.fieldProbe
  return probe
    ? probe.body({ operation: NOTIFICATION_OPERATION, status: NOTIFICATION_STATUS, exchange: `POST ${url}` }, body)
    : body
}
