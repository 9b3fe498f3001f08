import type { AreaPlugin } from '../context'
import { ledgerOf } from '../sales/ledger'
import { registerCustomerRoutes } from './routes-customers'
import { registerDataRoutes } from './routes-data'
import { registerMtaRoutes } from './routes-mta'
import { registerPaymentRoutes } from './routes-payments'
import { registerTechnicalChangeRoutes } from './routes-technical'
import { registerTerminationRoutes } from './routes-termination'
import { PoliciesStore } from './store'

/** Policies area: policy data, MTA, technical change, renewal, termination, broker payments, credit, customer view. */
export const policiesArea: AreaPlugin = (app, ctx) => {
  const store = new PoliciesStore(ledgerOf(app, ctx), ctx)
  registerDataRoutes(app, store)
  registerMtaRoutes(app, store)
  registerTechnicalChangeRoutes(app, store)
  registerTerminationRoutes(app, store)
  registerPaymentRoutes(app, store)
  registerCustomerRoutes(app, store)
}
