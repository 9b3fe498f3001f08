import type { DefectInfo } from './types'

const d = (area: string, clause: string, description: string): DefectInfo => ({ area, clause, description })
const S = (section: string) => `sales-service.md ${section}`

/**
 * The answers of writes and reads carrying a value their source does not give (issue 39): one defect per source kind
 * (echo, state, rule, agreement), in writes and in reads. Each is caught by an invariant of the answer oracle
 * (helpers/oracle/answer-model.ts, the table helpers/oracle/answer-sources.ts); their cases are in
 * test/model/oracle-defects.proof.test.ts. The behaviour is in reference/oracle-answers.ts (one hook that
 * changes the answer, as a service with that bug would).
 */
export const ORACLE_DEFECTS = {
  // echo, writes
  'oracle-create-echoes-other-name': d(
    'sales',
    S('§4'),
    'The quote create answer carries another customer name than the one sent (the stored quote has the name sent).',
  ),
  'oracle-calculate-other-sales-channel': d(
    'sales',
    S('§4'),
    'The calculate answer shows another policy.salesChannel than the quote holds.',
  ),
  'oracle-payment-other-reference': d(
    'policies',
    S('§1'),
    'POST /brokerpayments answers another reference than the one sent (the payment keeps the one sent).',
  ),
  'oracle-allocate-other-payment': d(
    'policies',
    S('§1'),
    'The allocate answer names another paymentId than the one sent.',
  ),
  'oracle-termination-quote-other-date': d(
    'policies',
    S('§4'),
    'The termination premiums answer carries another terminationDate (a day later) than the one asked.',
  ),
  // state, writes and reads
  'oracle-update-answers-other-id': d(
    'sales',
    S('§4'),
    'The update (PUT) answer names another quote id at /policy/id than the quote updated.',
  ),
  'oracle-get-subscription-other-id': d(
    'webhooks',
    'webhook-subscriptions.md §2',
    'A subscription read answers another id than the one asked for.',
  ),
  'oracle-credit-other-payment': d(
    'policies',
    S('§1'),
    'The credit answer names another paymentId than the payment of the allocation event it reverses.',
  ),
  // rule, reads and writes
  'oracle-quote-broker-comm-off': d(
    'sales',
    S('§4'),
    "A quote's financials in GET /sales/policies/{id} carry a brokerComm a cent off periodPremium x brokerCommPct / " +
      '100.',
  ),
  'oracle-links-broker-comm-off': d(
    'policies',
    S('§4'),
    "The policy view's financials carry a brokerComm a cent off periodPremium x brokerCommPct / 100.",
  ),
  'oracle-calculate-total-off': d(
    'sales',
    S('§4'),
    'The calculate answer carries a total one unit above periodPremium + tax + adminFeeSum.',
  ),
  // agreement, reads and writes
  'oracle-calculation-other-commission-pct': d(
    'sales',
    S('§4'),
    'The calculation read shows another brokerCommPct (one more, its brokerComm recomputed) than the calculate ' +
      'answer showed.',
  ),
  'oracle-links-status-disagrees': d(
    'policies',
    S('§4'),
    "The policy view's data.policy.status says lapsed while its meta.status says active.",
  ),
  'oracle-list-other-secret': d(
    'webhooks',
    'webhook-subscriptions.md §2',
    'The subscriptions list shows another secret for a subscription than it was created with.',
  ),
  'oracle-update-other-secret': d(
    'webhooks',
    'webhook-subscriptions.md §2',
    "The subscription update answer shows another secret than the subscription's.",
  ),
  'oracle-renewal-other-frequency': d(
    'policies',
    S('§4'),
    'The renewal data carries another policy.paymentFrequency than the policy holds (monthly, or annual for a ' +
      'monthly policy).',
  ),
  // state, reads (the quotes a policy view links)
  'oracle-links-quotes-other': d(
    'policies',
    S('§4'),
    "The policy view's links.quotes name other quote ids (each one more) than the policy's quotes.",
  ),
} as const satisfies Record<string, DefectInfo>
