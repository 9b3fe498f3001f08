import type { AreaPlugin } from '../context'
import { newPolicyIssueHandler } from './issue-new'
import { ledgerOf } from './ledger'
import { registerDocumentRoutes } from './routes-documents'
import { registerPolicyLinksRoute } from './routes-policy-links'
import { registerPricingRoutes } from './routes-pricing'
import { registerQuoteRoutes } from './routes-quotes'
import { registerRequestRoutes } from './routes-requests'
import { registerSchemeRoutes } from './routes-schemes'
import { registerWorkflowRoutes } from './routes-workflow'

/** The sales area: schemes, quote lifecycle, documents, async requests and policy links (sales-service.md §3-§4). */
export const salesArea: AreaPlugin = (app, ctx) => {
  const ledger = ledgerOf(app, ctx)
  ledger.issueHandlers.set('new', newPolicyIssueHandler)
  registerSchemeRoutes(app, ctx, ledger)
  registerQuoteRoutes(app, ctx, ledger)
  registerPricingRoutes(app, ctx, ledger)
  registerDocumentRoutes(app, ctx, ledger)
  registerWorkflowRoutes(app, ctx, ledger)
  registerRequestRoutes(app, ctx, ledger)
  registerPolicyLinksRoute(app, ctx, ledger)
}
