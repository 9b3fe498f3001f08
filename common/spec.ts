/** The two specifications a check can cite. */
export const SPEC = {
  sales: 'sales-service.md',
  webhooks: 'webhook-subscriptions.md',
} as const

export type SpecKey = keyof typeof SPEC

/** A check's identity: stable id, the clause it checks and the requirement in one sentence. */
export interface CheckMeta {
  /** Stable id, e.g. WH-LIFE-001. Never reuse or renumber. */
  id: string
  spec: SpecKey
  /** Section of the spec document, e.g. "§4" or "§7". */
  section: string
  /** The requirement, stated as what the target must do. */
  requirement: string
  /**
   * The operations (common/operations.json ids) the requirement is about, when neither the id nor the failing
   * request says it: the conformance matrix marks only these FAILED when the check fails (docs/reports.md).
   */
  about?: string[]
  /**
   * The product a per-product check (SL-LIFE-004-home) or a single-product check (the state table) works on: the
   * owner of an operation it fails on is that product's (common/operations.json `{product}`), and the same check of
   * another product failing the same way is the same finding (runner/run/results/findings.ts).
   */
  product?: string
}

export function citation(meta: CheckMeta): string {
  return `${SPEC[meta.spec]} ${meta.section}`
}
