import type { FastifyInstance } from 'fastify'
import type { ReferenceContext } from '../context'
import { SALES_PREFIX } from '../auth-guard'
import { notFound, tenantOf } from './access'
import type { Ledger } from './ledger'

/** GET /policies/{policyId}/links: the policy (anchors shape) with links to its quotes, documents and sub-resources. */
export function registerPolicyLinksRoute(app: FastifyInstance, ctx: ReferenceContext, ledger: Ledger): void {
  app.get<{ Params: { policyId: string } }>(`${SALES_PREFIX}/policies/:policyId/links`, async (req, reply) => {
    const policy =
      ledger.policy(tenantOf(req), req.params.policyId) ??
      (ctx.defects.has('policies-links-other-tenant') ? ledger.policies.get(req.params.policyId) : undefined)
    if (!policy) return notFound(reply, 'policy', req.params.policyId)
    // defect exercise-links-fail-after-mta: the policy view breaks once an MTA changed the policy
    if (policy.quoteIds.length > 1 && ctx.defects.has('exercise-links-fail-after-mta'))
      return reply.code(500).send({ message: 'internal server error' })
    const { policy: policyData, ...rest } = policy.data as { policy?: Record<string, unknown> } & Record<
      string,
      unknown
    >
    const view = (policy.extra['policyView'] ?? {}) as Record<string, unknown>
    const quoteIds = new Set(policy.quoteIds)
    for (const q of ledger.quotes.values())
      if (q.tenant === policy.tenant && q.policyId === policy.id) quoteIds.add(q.id)
    const documents = [...ledger.documents.values()]
      .filter(
        (d) =>
          d.tenant === policy.tenant &&
          (d.policyId === policy.id || (d.quoteId !== undefined && quoteIds.has(d.quoteId))),
      )
      .map((d) => ctx.ids.wire(d.id))
    const base = `${SALES_PREFIX}/policies/${policy.id}`
    return reply.send({
      data: {
        ...rest,
        policy: {
          ...(policyData ?? {}),
          id: ctx.ids.wire(policy.id),
          policyNo: policy.policyNo,
          status: policy.status,
          dateIssue: policy.dateIssue,
          dateInception: policy.dateInception,
          dateExpiry: policy.dateExpiry,
          // a view that formats the premium as whole units while the totals and invoices keep the cents
          financials: ctx.defects.has('policies-links-premium-truncated')
            ? { ...policy.financials, periodPremium: Math.trunc(policy.financials.periodPremium) }
            : policy.financials,
          ...view,
        },
        agent: { broker: policy.owner, code: policy.tenant },
      },
      meta: { status: policy.status, version: policy.version, schemaPath: `policy/regular/${policy.product}/1` },
      links: {
        self: `${base}/links`,
        invoices: `${base}/invoices`,
        periodTotals: `${base}/period-totals`,
        renewal: `${base}/renewal`,
        quotes: [...quoteIds],
        documents,
      },
    })
  })
}
