import { getPointer } from '../../client/data/json-pointer'
import type { HttpResult } from '../../client/http/types'
import { SalesFlowError, type CreateQuoteOptions, type IssuedPolicy, type SalesFlow } from '../sales/lifecycle'
import type { PoliciesApi } from './api'

/** A policy this run issued itself, with what its links said right after issue. */
export interface PolicyUnderTest {
  issued: IssuedPolicy
  policyId: string
  quoteId: string
  links: HttpResult
  /** The product data block of the links (policy, customer, objects). */
  data: Record<string, unknown>
  dateInception: string
  dateExpiry: string
  periodPremium?: number
}

/** Issues a policy through the sales lifecycle and reads its links. Throws SalesFlowError when a step fails. */
export async function issuePolicy(
  flow: SalesFlow,
  api: PoliciesApi,
  o: CreateQuoteOptions & { product?: string } = {},
): Promise<PolicyUnderTest> {
  const product = o.product ?? flow.t.config.product
  const issued = await flow.issueNewPolicy(product, o)
  const links = await api.links(issued.policyId)
  if (links.status !== 200)
    throw new SalesFlowError('policy links', 'expected 200 for the policy just issued', links, { product })
  const L = api.s.links
  const data = getPointer(links.body, L.dataPointer)
  const dateInception = getPointer(links.body, L.dateInceptionPointer)
  const dateExpiry = getPointer(links.body, L.dateExpiryPointer)
  if (
    typeof data !== 'object' ||
    data === null ||
    typeof dateInception !== 'string' ||
    typeof dateExpiry !== 'string'
  ) {
    throw new SalesFlowError(
      'policy links',
      `expected policy data at ${L.dataPointer} and dates at ${L.dateInceptionPointer}, ${L.dateExpiryPointer}`,
      links,
      { product },
    )
  }
  const premium = getPointer(links.body, L.periodPremiumPointer)
  return {
    issued,
    policyId: issued.policyId,
    quoteId: issued.quoteId,
    links,
    data: data as Record<string, unknown>,
    dateInception,
    dateExpiry,
    ...(typeof premium === 'number' ? { periodPremium: premium } : {}),
  }
}

/** Runs fn once on first use and shares its promise (a failure is seen by every caller). */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined
  return () => (p ??= fn())
}
