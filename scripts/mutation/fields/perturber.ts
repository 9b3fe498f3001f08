import { IdMemory, pathSegments, perturbAt, type PerturbationKind } from '../../../reference/variations/field-paths'
import type { FieldProbe, FieldSite } from '../../../reference/variations/field-probe'
import type { FieldKey } from './types'

/** A segment that names a secret: its values are never written into a report. */
const SECRET = /secret|passw|token|^key$|authori[sz]ation|signature|credential/i

/**
 * A URL with its path, query and fragment masked: the suite's webhook receivers listen on an unguessable path per
 * subscription, a secret it masks in every report (helpers/checks/webhooks/receiver.ts). Anything else unchanged.
 */
export function maskedUrl(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s/"]+(\/[^\s"]*)?/gi, (url) => {
    try {
      const u = new URL(url)
      return u.pathname === '/' && !u.search ? url : `${u.origin}/[redacted]`
    } catch {
      return '[redacted url]'
    }
  })
}

/**
 * A value as the reports show it: JSON, its last 80 characters (a string is altered at its end); [redacted] under a
 * secret's name; a URL's path masked; (dropped) when absent.
 */
export function shownValue(path: string, value: unknown): string {
  if (value === undefined) return '(dropped)'
  if (pathSegments(path).some((s) => SECRET.test(s))) return '[redacted]'
  const s = maskedUrl(JSON.stringify(value) ?? String(value))
  return s.length > 80 ? `...${s.slice(-77)}` : s
}

/** A field probe that perturbs one field of the map, alone, in every body of its operation and status. */
export class FieldPerturber implements FieldProbe {
  /** Values perturbed so far. */
  applied = 0
  example?: { exchange: string; kind: PerturbationKind; before: string; after: string }
  /** The field's ids so far: a later answer's id becomes an earlier one (IdMemory). */
  private readonly ids = new IdMemory()

  constructor(readonly field: FieldKey) {}

  body(site: FieldSite, body: unknown): unknown {
    if (site.operation !== this.field.operation || site.status !== this.field.status) return body
    const r = perturbAt(body, this.field.path, this.ids)
    if (r.count === 0) return body
    this.applied += r.count
    if (!this.example && r.first) {
      const exchange =
        site.status === 'sent' ? `notification ${maskedUrl(site.exchange)}` : `${site.exchange} -> ${site.status}`
      this.example = {
        exchange,
        kind: r.first.kind,
        before: shownValue(this.field.path, r.first.before),
        after: shownValue(this.field.path, r.first.after),
      }
    }
    return r.value
  }
}
