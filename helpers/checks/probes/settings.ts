import type { TargetConfig } from '../../../common/config/types'

/** How a target writes an id: a JSON integer / digits, a UUID, or any other string. */
export type IdStyle = 'integer' | 'uuid' | 'string'

/**
 * The families of ids the probes need: sales ids (quote/policy, document, payment, event), request ids, subscription
 * ids.
 */
export type IdKind = 'sales' | 'requests' | 'webhooks'

/** A set of statuses a probe accepts, with the reason (printed with the requirement). */
export interface StatusRule {
  statuses: number[]
  why: string
}

/** The resolved extensions.probes block of the profile (docs/contracts.md "Probes"), defaults filled in. */
export interface ProbeSettings {
  /** The id style of each family; a check that has seen an id of the family uses that id's style instead. */
  ids: Record<IdKind, IdStyle>
  /** A well-formed request naming an id that does not exist. */
  unknownId: StatusRule
  /** A well-formed request naming another tenant's or caller's resource. */
  foreignId: StatusRule
  /** A well-formed request whose body names something that does not exist (payment, invoice, policy). */
  unknownReference: StatusRule
}

/** The public documents' dialect: integer sales ids, UUID request ids, UUID-like string subscription ids. */
export const DEFAULT_PROBE_IDS: Record<IdKind, IdStyle> = { sales: 'integer', requests: 'uuid', webhooks: 'uuid' }

const UNKNOWN_ID_WHY =
  'the request is well-formed and authorised, only the id names nothing: 404 Not Found (RFC 9110 §15.5.5) or 410 ' +
  'Gone (§15.5.11); 400/422 would mean the probe itself was refused, 401/403 the caller'
const FOREIGN_ID_WHY =
  'the resource exists but belongs to another tenant or caller: 404 hides that it exists, 403 Forbidden (RFC 9110 ' +
  '§15.5.4) refuses it; either way with none of its data'
const UNKNOWN_REFERENCE_WHY =
  'the body is well-formed but names something that does not exist: 404 Not Found, 409 Conflict or 422 Unprocessable ' +
  'Content (RFC 9110 §15.5.5, §15.5.10, §15.5.21)'

type Raw = {
  ids?: Partial<Record<IdKind, IdStyle>>
  unknownIdStatuses?: number[]
  foreignIdStatuses?: number[]
  unknownReferenceStatuses?: number[]
}

/** Reads extensions.probes (already validated against the profile schema) with its defaults. */
export function probeSettings(config: Pick<TargetConfig, 'extensions'>): ProbeSettings {
  const raw = (config.extensions['probes'] ?? {}) as Raw
  return {
    ids: { ...DEFAULT_PROBE_IDS, ...(raw.ids ?? {}) },
    unknownId: { statuses: raw.unknownIdStatuses ?? [404, 410], why: UNKNOWN_ID_WHY },
    foreignId: { statuses: raw.foreignIdStatuses ?? [403, 404], why: FOREIGN_ID_WHY },
    unknownReference: { statuses: raw.unknownReferenceStatuses ?? [404, 409, 422], why: UNKNOWN_REFERENCE_WHY },
  }
}
