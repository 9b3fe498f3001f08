import { beforeAll, describe } from 'vitest'
import {
  expiryLeewaySeconds,
  msUntilExpired,
  takeExpiredToken,
  type ExpiringToken,
} from '../../helpers/client/auth/expiring-token'
import { check } from '../../helpers/checks/check'
import { given } from '../../helpers/checks/setup'
import { expectStatus, expectThat } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import type { HttpResult } from '../../helpers/client/http/types'
import { documentIdOf } from '../../helpers/oracle/documents'
import { useSalesFlow } from '../../helpers/checks/sales/lifecycle'
import { probesFor } from '../../helpers/checks/probes/requests'

/**
 * Every sales resource kind of one issued quote (the quote, its issue request, a document) probed from another tenant
 * and with an expired token (sales-service.md §5). The refusals are this file's checks; the model's invariants
 * (SL-INV-006 scoping, SL-INV-007 expiry, SL-INV-002 data unchanged) judge every answer as well, each on its own id.
 */
const t = useTarget()
const flow = useSalesFlow(t, 'scope')
const product = t.config.product
const other = t.user('otherTenant')
/**
 * Every parameter the operations require, so a refusal answers the tenant or the token only (docs/contracts.md
 * "Probes").
 */
const wellFormed = probesFor(t)
const st: {
  token?: ExpiringToken
  resources?: Promise<{ quoteId: string; draftId: string; requestId: string; documentId: string }>
} = {}

beforeAll(async () => {
  // taken at the start of the file: it expires while the tenant probes run (no wait on the run's critical path)
  st.token = await takeExpiredToken(t)
})

/**
 * One issued quote with its request and a document, made once for the file: setup, blocking every check when it fails.
 */
function resources() {
  st.resources ??= given(
    'an issued quote with its request and a document, and a draft quote',
    async () => {
      // an issued quote (with its request and a document) and a draft one, which an update could change
      const [p, draft] = await Promise.all([
        flow.issueNewPolicy(product, { label: 'scope' }),
        flow.createQuote(product, { label: 'scope-draft' }),
      ])
      await flow.unlocked(draft.quoteId, 'wait after create')
      const gen = await t.sales.call({
        op: 'sales.documents.generate',
        params: { id: p.quoteId },
        headers: { accept: '*/*' },
      })
      expectStatus(gen, '2xx')
      const documentId = documentIdOf(gen, flow.settings.documentIdFrom)
      expectThat(documentId !== undefined, {
        expected: `a document id (${flow.settings.documentIdFrom})`,
        actual: 'none',
        res: gen,
      })
      return { quoteId: p.quoteId, draftId: draft.quoteId, requestId: p.requestId, documentId: documentId! }
    },
    { product },
  )
  return st.resources
}

type Who = { as: NonNullable<typeof other> } | { bearer: string }
const probes: Record<string, (r: Awaited<ReturnType<typeof resources>>, who: Who) => Promise<HttpResult>[]> = {
  quote: (r, who) => [
    t.sales.call({
      op: 'sales.quote.get',
      params: { policyId: r.quoteId },
      query: wellFormed.requiredQuery('sales.quote.get'),
      ...who,
    }),
    t.sales.call({ op: 'sales.quote.actions', params: { id: r.quoteId }, ...who }),
    t.sales.call({
      op: 'sales.quote.update',
      params: { policyId: r.draftId },
      json: { policy: { externalReference: t.tag('scope-stolen') } },
      ...who,
    }),
    t.sales.call({
      op: 'sales.quote.calculate',
      params: { id: r.draftId },
      query: wellFormed.requiredQuery('sales.quote.calculate'),
      json: {},
      ...who,
    }),
    t.sales.call({ op: 'sales.quote.calculation', params: { id: r.quoteId }, ...who }),
  ],
  request: (r, who) => [t.sales.call({ op: 'sales.requests.get', params: { requestId: r.requestId }, ...who })],
  document: (r, who) => [
    t.sales.call({ op: 'sales.documents.download', params: { id: r.documentId }, headers: { accept: '*/*' }, ...who }),
  ],
}

describe('sales: every resource kind scoped to its tenant and to a live token (sales-service.md §5)', () => {
  const kinds = Object.keys(probes)
  kinds.forEach((kind, i) => {
    check(
      {
        id: `SL-SCOPE-00${i + 1}`,
        spec: 'sales',
        section: '§5',
        requirement:
          `A ${kind} of one tenant is refused (4xx) to a user of another tenant, for reads and writes ` +
          `alike (that the quotes are unchanged afterwards is judged by SL-INV-002).`,
      },
      async (c) => {
        if (!other) c.notApplicable('the profile names no user of another tenant (users.otherTenant)')
        const r = await resources()
        for (const res of await Promise.all(probes[kind]!(r, { as: other! }))) expectStatus(res, '4xx')
        expectStatus(await flow.getQuote(r.quoteId), 200)
        await flow.unlocked(r.draftId, 'the actions of the draft quote after the probes')
        expectStatus(await flow.getQuote(r.draftId), 200)
      },
    )
  })
  kinds.forEach((kind, i) => {
    check(
      {
        id: `SL-SCOPE-00${kinds.length + i + 1}`,
        spec: 'sales',
        section: '§5',
        requirement: `A ${kind} is refused with 401 to an expired token, for reads and writes alike.`,
      },
      async (c) => {
        const r = await resources()
        if (!st.token)
          c.notApplicable('the profile names no users.expired nor users.shortLived, or their login gave no token')
        const wait = msUntilExpired(st.token!, expiryLeewaySeconds(t))
        expectThat(wait < 20_000, {
          expected: 'a token that expires within 20 s (plus the leeway)',
          actual: `${Math.round(wait / 1000)} s`,
        })
        await new Promise((resolve) => setTimeout(resolve, wait))
        for (const res of await Promise.all(probes[kind]!(r, { bearer: st.token!.token }))) expectStatus(res, 401)
      },
    )
  })
})
