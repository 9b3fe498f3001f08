import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OPERATION_FACTS, changesExisting, touches } from '../../common/operation-facts'
import { OPERATION_IDS, type OperationId } from '../../common/operation-ids'
import { OPERATIONS, factsOf, isOperationId, operation } from '../../common/operations'
import { PROJECT_ROOT } from '../../common/project-root'
import { OPERATION_IDS_FILE, readCatalogueJson, renderOperationIds } from '../../scripts/operations/render'

const ids = (pred: (id: OperationId) => boolean) => OPERATION_IDS.filter(pred).sort()

describe('the operation catalogue', () => {
  it('common/operation-ids.ts is generated from common/operations.json (npm run operations:generate)', () => {
    expect(readFileSync(join(PROJECT_ROOT, OPERATION_IDS_FILE), 'utf8')).toBe(renderOperationIds(readCatalogueJson()))
    expect(OPERATIONS.map((o) => o.id)).toEqual([...OPERATION_IDS])
  })

  it('knows an id from a typo', () => {
    expect(isOperationId('sales.quote.get')).toBe(true)
    expect(isOperationId('sales.quote.gte')).toBe(false)
  })

  it('has facts that agree with the paths and with each other', () => {
    for (const id of OPERATION_IDS) {
      const f = factsOf(id)
      const op = operation(id)
      if (f.idParam !== null) expect(op.path, id).toContain(`{${f.idParam}}`)
      if (f.access === 'read') expect(f.changes, id).toEqual([])
      else expect(f.shows, id).toEqual([])
      if (f.moneyMoving) expect(f.changes, id).toContain('money')
      if (f.quoteAction !== null) expect([f.resource, f.access], id).toEqual(['quote', 'write'])
      // the exercise dimensions: a view re-read after a write, a list's entries counted, are reads
      if (f.exercise.reread || ('list' in f.exercise && f.exercise.list)) expect(f.access, id).toBe('read')
    }
    expect(Object.keys(OPERATION_FACTS).sort()).toEqual([...OPERATION_IDS].sort())
  })

  // the hand-kept sets the oracle held before the catalogue (47ce60b), restated here once: the facts give them back
  it('gives back the sets the oracle kept by hand (behaviour unchanged)', () => {
    // sales-model QUOTE_OPS / QUOTE_WRITES
    expect(
      Object.fromEntries(ids((id) => factsOf(id).quoteAction !== null).map((id) => [id, factsOf(id).quoteAction])),
    ).toEqual({
      'sales.quote.update': 'update',
      'sales.quote.calculate': 'calculate',
      'sales.quote.referral': 'referral',
      'sales.quote.decline': 'decline',
      'sales.quote.bind': 'bind',
      'sales.quote.issue': 'issue',
      'sales.documents.generate': 'documents',
    })
    // sales-model POLICY_LIST_MOVES
    expect(ids((id) => factsOf(id).changes.includes('policy-actions'))).toEqual([
      'sales.policy.data-change',
      'sales.quote.mta',
      'sales.termination.terminate',
    ])
    // money-model MONEY_WRITES
    expect(ids((id) => factsOf(id).moneyMoving)).toEqual([
      'sales.invoice.credit',
      'sales.payments.allocate',
      'sales.quote.issue',
      'sales.termination.terminate',
    ])
    // service-model: write = QUOTE_WRITES ∪ MONEY_WRITES ∪ POLICY_WRITES (sales) and WEBHOOK_WRITES
    expect(ids(changesExisting)).toEqual([
      'sales.documents.generate',
      'sales.invoice.credit',
      'sales.payments.allocate',
      'sales.policy.data-change',
      'sales.quote.bind',
      'sales.quote.calculate',
      'sales.quote.decline',
      'sales.quote.issue',
      'sales.quote.mta',
      'sales.quote.referral',
      'sales.quote.update',
      'sales.termination.terminate',
      'webhooks.subscription.create',
      'webhooks.subscription.delete',
      'webhooks.subscription.update',
    ])
    // service-model's money key: MONEY_WRITES, period totals, links; its documents key: generate, links
    expect(ids((id) => touches(id, 'money'))).toEqual([
      'sales.invoice.credit',
      'sales.payments.allocate',
      'sales.policy.links',
      'sales.policy.period-totals',
      'sales.quote.issue',
      'sales.termination.terminate',
    ])
    expect(ids((id) => touches(id, 'documents'))).toEqual(['sales.documents.generate', 'sales.policy.links'])
    // the prefix tests: sales.quote.* or documents.generate is a quote; sales.policy.*, sales.termination.*,
    // sales.customers.* a policy
    expect(ids((id) => factsOf(id).resource === 'quote')).toEqual(
      ids((id) => id.startsWith('sales.quote.') || id === 'sales.documents.generate'),
    )
    expect(ids((id) => factsOf(id).resource === 'policy')).toEqual(
      ids(
        (id) =>
          id.startsWith('sales.policy.') || id.startsWith('sales.termination.') || id.startsWith('sales.customers.'),
      ),
    )
    // policy-model POLICY_READS, MONEY_EPOCH_OPS (less the request status read), its quote writes and money moves
    expect(ids((id) => factsOf(id).resource === 'policy' && factsOf(id).access === 'read')).toEqual([
      'sales.customers.custom-view',
      'sales.policy.invoices',
      'sales.policy.links',
      'sales.policy.period-totals',
      'sales.policy.renewal',
      'sales.termination.premiums',
    ])
    expect(ids((id) => factsOf(id).changes.includes('invoices'))).toEqual([
      'sales.policy.data-change',
      'sales.quote.issue',
      'sales.quote.mta',
      'sales.termination.terminate',
    ])
    expect(ids((id) => factsOf(id).moneyMoving && !factsOf(id).changes.includes('policy'))).toEqual([
      'sales.invoice.credit',
      'sales.payments.allocate',
    ])
    expect(
      ids(
        (id) =>
          factsOf(id).resource === 'policy' &&
          factsOf(id).access === 'read' &&
          (factsOf(id).shows.includes('money') || factsOf(id).shows.includes('invoices')),
      ),
    ).toEqual([
      'sales.customers.custom-view',
      'sales.policy.invoices',
      'sales.policy.links',
      'sales.policy.period-totals',
    ])
    // probes' required query
    expect(
      Object.fromEntries(ids((id) => factsOf(id).requiredQuery !== null).map((id) => [id, factsOf(id).requiredQuery])),
    ).toEqual({
      'sales.customers.custom-view': 'customerIdentity',
      'sales.quote.calculate': 'withNotifications',
      'sales.quote.get': 'withNotifications',
    })
  })
})
