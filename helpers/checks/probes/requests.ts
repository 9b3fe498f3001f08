import {
  factsOf,
  isBodyOperation,
  type BodyOperationId,
  type Operation,
  type OperationId,
} from '../../../common/operations'
import type { TargetConfig } from '../../../common/config/types'
import type { CallOptions } from '../../client/http/client'
import { missingId, styleOf } from './ids'
import { probeSettings, type IdKind, type ProbeSettings } from './settings'

/** What a probe needs of the target (a SuiteContext has it). */
export interface ProbeTarget {
  config: Pick<TargetConfig, 'extensions' | 'runId' | 'seed' | 'product'>
  tag(label: string): string
}

/** The parts of a call a probe fills in. */
export type ProbeCall = Required<Pick<CallOptions, 'op' | 'params'>> & Pick<CallOptions, 'query' | 'json' | 'headers'>

/**
 * Well-formed probes (docs/contracts.md "Probes"): an id of the target's id type that does not exist, every
 * parameter the operation requires and a body of the documented shape, so that the only thing wrong with a
 * probe is what its check tests (the token, the id, the tenant).
 */
export interface Probes {
  settings: ProbeSettings
  /** An id of this family that does not exist; in the style of `seen` when the check has seen an id of the family. */
  missing(kind: IdKind, seen?: unknown): string
  /** The missing id as a JSON body would carry it: a number for an integer-style id. */
  missingInBody(kind: IdKind, seen?: unknown): string | number
  /** The family of a path parameter of an operation. */
  kindOf(op: Pick<Operation, 'service'>, param: string): IdKind | undefined
  /** The query parameters the operation requires (the public documents mark them required). */
  requiredQuery(opId: OperationId): Record<string, string | boolean>
  /**
   * A complete request of `op` on ids that do not exist (path parameters filled in, required query, documented body).
   */
  call(op: Operation): ProbeCall
}

/** Query parameters the public documents mark required (anchors: get-quote-data, calculate, custom-view). */
function requiredQuery(opId: OperationId, config: ProbeTarget['config']): Record<string, string | boolean> {
  const required = factsOf(opId).requiredQuery
  if (required === 'withNotifications') return { withNotifications: true }
  if (required === 'customerIdentity') {
    const params = (config.extensions['probes'] as { customerIdentity?: Record<string, string> } | undefined)
      ?.customerIdentity
    return params ?? { code: '00000000000', documentCountry: 'EE' }
  }
  return {}
}

export function probesFor(t: ProbeTarget): Probes {
  const settings = probeSettings(t.config)
  const missing = (kind: IdKind, seen?: unknown): string =>
    missingId(styleOf(seen) ?? settings.ids[kind], t.config, kind)
  const missingInBody = (kind: IdKind, seen?: unknown): string | number => {
    const id = missing(kind, seen)
    return (styleOf(seen) ?? settings.ids[kind]) === 'integer' ? Number(id) : id
  }
  const kindOf = (op: Pick<Operation, 'service'>, param: string): IdKind | undefined => {
    if (op.service === 'webhooks') return 'webhooks'
    if (param === 'requestId') return 'requests'
    return param === 'type' || param === 'name' ? undefined : 'sales'
  }
  const date = '2030-01-01'
  /** Bodies of the documented shape (anchors' request schemas; the project's shapes where none is published). */
  const bodies: Record<BodyOperationId, (() => unknown) | null> = {
    'sales.quote.create': () => ({ schema: { type: 'policy', name: t.config.product } }),
    'sales.quote.mta': () => ({ policy: { id: missingInBody('sales') }, mta: { dateEffective: date } }),
    'sales.quote.update': () => ({ policy: { externalReference: t.tag('probe') } }),
    'sales.quote.decline': () => ({ reason: t.tag('probe') }),
    'sales.quote.referral': () => ({ comment: t.tag('probe') }),
    'sales.quote.calculate': () => ({}),
    'sales.quote.bind': () => ({}),
    'sales.quote.issue': () => ({}),
    'sales.termination.premiums': () => ({ policy: { terminationType: 'pro-rata', terminationDate: date } }),
    // policy-terminate-request is a oneOf: only full-rollback matches one branch without a date
    'sales.termination.terminate': () => ({
      policy: { terminationType: 'full-rollback', terminationReason: t.tag('probe') },
    }),
    'sales.payments.insert': () => ({ amount: 1, paymentDate: date, reference: t.tag('probe') }),
    'sales.payments.allocate': () => ({
      paymentId: missingInBody('sales'),
      allocations: [{ invoicenumber: missing('sales'), amount: 1 }],
    }),
    'sales.invoice.credit': () => ({}),
    'sales.policy.data-change': () => ({ policy: { externalReference: t.tag('probe') } }),
    'webhooks.subscription.create': () => ({
      event: 'extracted',
      url: `https://webhook-receiver.invalid/ledger-conformance/${t.tag('probe')}`,
    }),
    'webhooks.subscription.update': () => ({
      url: `https://webhook-receiver.invalid/ledger-conformance/${t.tag('probe')}`,
    }),
    // no documented body
    'sales.documents.generate': null,
  }
  return {
    settings,
    missing,
    missingInBody,
    kindOf,
    requiredQuery: (opId) => requiredQuery(opId, t.config),
    call(op) {
      const params: Record<string, string> = {}
      for (const m of op.path.matchAll(/\{([^}]+)\}/g)) {
        const name = m[1]!
        const kind = kindOf(op, name)
        params[name] = kind ? missing(kind) : name === 'type' ? 'policy' : t.config.product
      }
      const query = requiredQuery(op.id, t.config)
      const body = isBodyOperation(op.id) ? bodies[op.id] : null
      return {
        op: op.id,
        params,
        ...(Object.keys(query).length > 0 ? { query } : {}),
        ...(body ? { json: body() } : {}),
      }
    },
  }
}
