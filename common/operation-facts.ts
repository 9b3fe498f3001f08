/**
 * What the code must know of each operation, one row per `OperationId` (the typed half of the operation catalogue;
 * common/operations.json holds the method, path, spec clause and owner). The table is a `Record<OperationId, …>`:
 * a new id in operations.json does not compile until its row is written here, and every decision the oracle, the
 * probes and the exercise helper take on an operation is a lookup of these facts, not a hand-kept set or a test on an
 * id's prefix (docs/architecture.md "The operation catalogue").
 */
import type { OperationId } from './operation-ids'

/** What an operation addresses (the resource its id parameter names, or would name). */
export type Resource =
  | 'quote'
  | 'policy'
  | 'request'
  | 'document'
  | 'scheme'
  | 'payment'
  | 'invoice'
  | 'subscription'
  | 'event'

/**
 * The views of the services an operation reads or a write may change (the model's vocabulary):
 * - `quote`: a quote's data; `actions`: a quote's actions list (sales §3);
 * - `policy`: a policy's data and views; `invoices`: its invoices and premium (PL-INV-006 compares one epoch of them);
 * - `policy-actions`: the actions lists of a policy's quotes (the issuing one and its MTA quotes; SL-INV-010);
 * - `money`: balances and allocations (helpers/oracle/money-model.ts);
 * - `documents`: the documents generated for a quote or policy; `document`: one document's bytes;
 * - `subscriptions`: a caller's webhook subscriptions.
 */
export type View =
  | 'quote'
  | 'actions'
  | 'policy'
  | 'invoices'
  | 'policy-actions'
  | 'money'
  | 'documents'
  | 'document'
  | 'subscriptions'

/** The quote action of the actions list a write is (common/config/sales-settings.ts SalesActionNames). */
export type QuoteAction = 'update' | 'calculate' | 'referral' | 'decline' | 'bind' | 'issue' | 'documents'

/** Query parameters the public documents mark required (helpers/checks/probes/requests.ts fills them in). */
export type RequiredQuery = 'withNotifications' | 'customerIdentity'

/**
 * The exercise model's classes (issue 40, docs/exercise.md; helpers/oracle/exercise-model.ts crosses them into cells):
 * the states of the resource an operation addresses, and the writes after which a view is read again.
 */
export const QUOTE_STATES = ['draft', 'calculated', 'referred', 'bound', 'declined', 'issued'] as const
export const POLICY_STATES = ['issued', 'changed', 'technically-changed', 'terminated'] as const
export const SUBSCRIPTION_STATES = ['live', 'updated', 'deleted'] as const
export const POLICY_REREADS = ['after-mta', 'after-technical-change', 'after-termination'] as const
export const SUBSCRIPTION_REREADS = ['after-update', 'after-delete'] as const
export type QuoteState = (typeof QUOTE_STATES)[number]
export type PolicyState = (typeof POLICY_STATES)[number]
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number]
export type RereadClass = (typeof POLICY_REREADS)[number] | (typeof SUBSCRIPTION_REREADS)[number]

/**
 * How the exercise model crosses an operation (the one place its exercise decision is written; the model derives its
 * cells from it, and a new operation does not compile without it):
 * - `stateOf`: the resource whose state classes the owner's call is exercised in (`none`: no state dimension);
 *   `states`: a subset of that resource's states (default: all);
 * - `scoped`: it addresses one tenant's resource (or the caller's own list): another tenant's caller is a class;
 * - `rights`: the caller's rights shape what it may send or read (sales §5): the restricted user is a class;
 * - `list`: it answers a list the caller's data fills (subscriptions: 0, 1, several, over a page; a schedule: 1, 12);
 * - `reread`: it is a view some write may change, read again after each such write.
 * Every operation is tried with no, a malformed and an expired token, and by its owner. Whether it writes is `access`.
 */
export type ExerciseDimensions =
  | {
      stateOf: 'quote'
      states?: readonly QuoteState[]
      scoped: boolean
      rights: boolean
      list?: 'schedule'
      reread?: readonly RereadClass[]
    }
  | {
      stateOf: 'policy'
      states?: readonly PolicyState[]
      scoped: boolean
      rights: boolean
      list?: 'schedule'
      reread?: readonly RereadClass[]
    }
  | {
      stateOf: 'subscription'
      states?: readonly SubscriptionState[]
      scoped: boolean
      rights: boolean
      reread?: readonly RereadClass[]
    }
  | {
      stateOf: 'none'
      scoped: boolean
      rights: boolean
      list?: 'subscriptions' | 'schedule'
      reread?: readonly RereadClass[]
    }

export interface OperationFacts {
  resource: Resource
  /** The path parameter that names the resource; null when the path names none (a create, a list, a body id). */
  idParam: string | null
  access: 'read' | 'write'
  /** For a write: the views of EXISTING resources it may change (empty: it only creates). For a read: none. */
  changes: readonly View[]
  /** For a read: the views it shows that a write on the same view makes unsure while in flight (flights.ts). */
  shows: readonly View[]
  /** Moves money (allocations, credits, terminations, issues): reads of money overlapping it are not judged. */
  moneyMoving: boolean
  /** For a quote write: which action of the actions list it is; null otherwise. */
  quoteAction: QuoteAction | null
  requiredQuery: RequiredQuery | null
  exercise: ExerciseDimensions
}

/** The exercise dimensions of the common kinds of operation. */
const ON_QUOTE = { stateOf: 'quote', scoped: true, rights: false } as const satisfies ExerciseDimensions
const POLICY_VIEW = {
  stateOf: 'policy',
  scoped: true,
  rights: false,
  reread: POLICY_REREADS,
} as const satisfies ExerciseDimensions
const ON_POLICY = { stateOf: 'policy', scoped: true, rights: false } as const satisfies ExerciseDimensions
const ON_SUBSCRIPTION = { stateOf: 'subscription', scoped: true, rights: false } as const satisfies ExerciseDimensions
/** No state of its own; `scoped`: it addresses a tenant's resource by id. */
const stateless = (scoped: boolean, more: { rights?: boolean } = {}): ExerciseDimensions => ({
  stateOf: 'none',
  scoped,
  rights: more.rights ?? false,
})

const quoteWrite = (
  quoteAction: QuoteAction,
  changes: readonly View[],
  idParam = 'policyId',
  moneyMoving = false,
  exercise: ExerciseDimensions = ON_QUOTE,
): OperationFacts => ({
  resource: 'quote',
  idParam,
  access: 'write',
  changes,
  shows: [],
  moneyMoving,
  quoteAction,
  requiredQuery: null,
  exercise,
})

const read = (
  resource: Resource,
  idParam: string | null,
  shows: readonly View[],
  exercise: ExerciseDimensions,
  requiredQuery: RequiredQuery | null = null,
): OperationFacts => ({
  resource,
  idParam,
  access: 'read',
  changes: [],
  shows,
  moneyMoving: false,
  quoteAction: null,
  requiredQuery,
  exercise,
})

/** The facts of every operation (a row per id of common/operations.json; the compiler demands each). */
export const OPERATION_FACTS: Record<OperationId, OperationFacts> = {
  'sales.quote.create': {
    resource: 'quote',
    idParam: null,
    access: 'write',
    changes: [],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: stateless(false, { rights: true }),
  },
  'sales.quote.mta': {
    resource: 'quote',
    idParam: null,
    access: 'write',
    changes: ['policy', 'invoices', 'policy-actions'],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: ON_POLICY,
  },
  'sales.quote.get': read('quote', 'policyId', ['quote'], { ...ON_QUOTE, rights: true }, 'withNotifications'),
  'sales.quote.actions': read('quote', 'id', ['actions'], ON_QUOTE),
  'sales.quote.installments': read('quote', 'policyId', ['quote'], {
    ...ON_QUOTE,
    list: 'schedule',
    states: ['calculated', 'bound', 'issued'],
  }),
  'sales.quote.update': quoteWrite('update', ['quote', 'actions'], 'policyId', false, { ...ON_QUOTE, rights: true }),
  'sales.quote.decline': quoteWrite('decline', ['actions']),
  'sales.quote.calculate': {
    ...quoteWrite('calculate', ['quote', 'actions'], 'id'),
    requiredQuery: 'withNotifications',
  },
  'sales.quote.calculation': read('quote', 'id', ['quote'], {
    ...ON_QUOTE,
    states: ['draft', 'calculated', 'bound', 'issued'],
  }),
  'sales.documents.generate': quoteWrite('documents', ['documents', 'actions'], 'id'),
  'sales.documents.download': read('document', 'id', ['document'], stateless(true)),
  'sales.quote.referral': quoteWrite('referral', ['actions']),
  'sales.quote.bind': quoteWrite('bind', ['actions']),
  'sales.quote.issue': quoteWrite('issue', ['actions', 'policy', 'invoices', 'money'], 'id', true),
  'sales.policy.renewal': read('policy', 'policyId', ['policy'], POLICY_VIEW),
  'sales.policy.links': read('policy', 'policyId', ['policy', 'money', 'documents'], POLICY_VIEW),
  'sales.policy.invoices': read('policy', 'policyId', ['invoices'], { ...POLICY_VIEW, list: 'schedule' }),
  'sales.policy.period-totals': read('policy', 'id', ['invoices', 'money'], POLICY_VIEW),
  // a POST that calculates and changes nothing (PL-INV-005)
  'sales.termination.premiums': read('policy', 'policyId', [], POLICY_VIEW),
  'sales.termination.terminate': {
    resource: 'policy',
    idParam: 'policyId',
    access: 'write',
    changes: ['policy', 'invoices', 'money', 'policy-actions'],
    shows: [],
    moneyMoving: true,
    quoteAction: null,
    requiredQuery: null,
    exercise: ON_POLICY,
  },
  'sales.schemes.get': read('scheme', 'name', [], stateless(false, { rights: true })),
  'sales.customers.custom-view': read(
    'policy',
    'policyId',
    ['invoices'],
    { ...POLICY_VIEW, list: 'schedule' },
    'customerIdentity',
  ),
  'sales.payments.insert': {
    resource: 'payment',
    idParam: null,
    access: 'write',
    changes: [],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: stateless(false),
  },
  'sales.payments.allocate': {
    resource: 'payment',
    idParam: null,
    access: 'write',
    changes: ['money'],
    shows: [],
    moneyMoving: true,
    quoteAction: null,
    requiredQuery: null,
    // the state of the policy whose invoices it allocates to (the exercise tracker knows an invoice's policy from its
    // owner's reads): a live one, and a terminated one that still has an amount due (EX-TERM-004)
    exercise: { stateOf: 'policy', states: ['issued', 'terminated'], scoped: true, rights: false },
  },
  'sales.invoice.credit': {
    resource: 'invoice',
    idParam: 'eventId',
    access: 'write',
    changes: ['money'],
    shows: [],
    moneyMoving: true,
    quoteAction: null,
    requiredQuery: null,
    exercise: stateless(true),
  },
  'sales.policy.data-change': {
    resource: 'policy',
    idParam: 'id',
    access: 'write',
    changes: ['policy', 'invoices', 'policy-actions'],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: ON_POLICY,
  },
  'sales.requests.get': read('request', 'requestId', [], stateless(true)),
  'webhooks.events.list': read('event', null, [], stateless(false)),
  'webhooks.subscription.create': {
    resource: 'subscription',
    idParam: null,
    access: 'write',
    changes: ['subscriptions'],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: stateless(false),
  },
  'webhooks.subscriptions.list': read('subscription', null, ['subscriptions'], {
    stateOf: 'none',
    scoped: true,
    rights: false,
    list: 'subscriptions',
    reread: SUBSCRIPTION_REREADS,
  }),
  'webhooks.subscription.get': read('subscription', 'id', ['subscriptions'], {
    ...ON_SUBSCRIPTION,
    reread: SUBSCRIPTION_REREADS,
  }),
  'webhooks.subscription.update': {
    resource: 'subscription',
    idParam: 'id',
    access: 'write',
    changes: ['subscriptions'],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: ON_SUBSCRIPTION,
  },
  'webhooks.subscription.delete': {
    resource: 'subscription',
    idParam: 'id',
    access: 'write',
    changes: ['subscriptions'],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: ON_SUBSCRIPTION,
  },
}

export function factsOf(id: OperationId): OperationFacts {
  return OPERATION_FACTS[id]
}

/**
 * A write that may change a view of an existing resource (the flight tracker serialises on it; a lost answer makes the
 * model forget).
 */
export const changesExisting = (id: OperationId): boolean => OPERATION_FACTS[id].changes.length > 0

/** Whether the operation writes or shows the view. */
export const touches = (id: OperationId, view: View): boolean =>
  OPERATION_FACTS[id].changes.includes(view) || OPERATION_FACTS[id].shows.includes(view)
