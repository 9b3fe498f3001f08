/**
 * What the code must know of each operation, one row per `OperationId` (the typed half of the operation catalogue;
 * common/operations.json holds the method, path, spec clause and owner). The table is a `Record<OperationId, …>`:
 * a new id in operations.json does not compile until its row is written here, and every decision the oracle, the
 * probes and the exercise helper take on an operation is a lookup of these facts, not a hand-kept set or a test on an
 * id's prefix (docs/architecture.md "The operation catalogue").
 */
import type { OperationId } from './operation-ids'

/** What an operation addresses (the resource its id parameter names, or would name). */
export type Resource = 'quote' | 'policy' | 'request' | 'document' | 'scheme' | 'payment' | 'invoice' | 'subscription' | 'event'

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

/** The exercise dimensions: which classes of resource state an operation is worth trying in. */
export type StateClass = 'absent' | 'draft' | 'calculated' | 'bound' | 'issued' | 'declined' | 'terminated' | 'active' | 'deleted'

/** Which callers an operation is worth trying with. */
export type CallerClass = 'owner' | 'other-tenant' | 'other-user' | 'anonymous' | 'expired-token'

/** How many resources an operation answers about: one, or a list (paged, filtered). */
export type Multiplicity = 'one' | 'list' | 'none'

/** The dimensions the `exercise` helper crosses for an operation (data: the helper decides how). */
export interface ExerciseDimensions {
  states: readonly StateClass[]
  callers: readonly CallerClass[]
  multiplicity: Multiplicity
  /** The reads that show what this write did (re-read after write); empty for a read. */
  reread: readonly OperationId[]
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

const QUOTE_STATES: readonly StateClass[] = ['absent', 'draft', 'calculated', 'bound', 'issued', 'declined']
const POLICY_STATES: readonly StateClass[] = ['absent', 'issued', 'terminated']
const SUB_STATES: readonly StateClass[] = ['absent', 'active', 'deleted']
const TENANT_CALLERS: readonly CallerClass[] = ['owner', 'other-tenant', 'anonymous', 'expired-token']
const USER_CALLERS: readonly CallerClass[] = ['owner', 'other-user', 'anonymous', 'expired-token']
const ANY_CALLER: readonly CallerClass[] = ['owner', 'anonymous', 'expired-token']

const quoteWrite = (quoteAction: QuoteAction, changes: readonly View[], reread: readonly OperationId[], idParam = 'policyId', moneyMoving = false): OperationFacts => ({
  resource: 'quote',
  idParam,
  access: 'write',
  changes,
  shows: [],
  moneyMoving,
  quoteAction,
  requiredQuery: null,
  exercise: { states: QUOTE_STATES, callers: TENANT_CALLERS, multiplicity: 'one', reread },
})

const read = (resource: Resource, idParam: string | null, shows: readonly View[], exercise: ExerciseDimensions, requiredQuery: RequiredQuery | null = null): OperationFacts => ({
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

const one = (states: readonly StateClass[], callers = TENANT_CALLERS): ExerciseDimensions => ({ states, callers, multiplicity: 'one', reread: [] })

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
    exercise: { states: [], callers: TENANT_CALLERS, multiplicity: 'none', reread: ['sales.quote.get', 'sales.quote.actions'] },
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
    exercise: { states: POLICY_STATES, callers: TENANT_CALLERS, multiplicity: 'one', reread: ['sales.quote.get', 'sales.quote.actions'] },
  },
  'sales.quote.get': read('quote', 'policyId', ['quote'], one(QUOTE_STATES), 'withNotifications'),
  'sales.quote.actions': read('quote', 'id', ['actions'], one(QUOTE_STATES)),
  'sales.quote.installments': read('quote', 'policyId', ['quote'], one(QUOTE_STATES)),
  'sales.quote.update': quoteWrite('update', ['quote', 'actions'], ['sales.quote.get', 'sales.quote.actions']),
  'sales.quote.decline': quoteWrite('decline', ['actions'], ['sales.quote.actions']),
  'sales.quote.calculate': {
    ...quoteWrite('calculate', ['quote', 'actions'], ['sales.quote.calculation', 'sales.quote.actions'], 'id'),
    requiredQuery: 'withNotifications',
  },
  'sales.quote.calculation': read('quote', 'id', ['quote'], one(QUOTE_STATES)),
  'sales.documents.generate': quoteWrite('documents', ['documents', 'actions'], ['sales.policy.links', 'sales.quote.actions'], 'id'),
  'sales.documents.download': read('document', 'id', ['document'], one(['absent', 'active'])),
  'sales.quote.referral': quoteWrite('referral', ['actions'], ['sales.quote.actions']),
  'sales.quote.bind': quoteWrite('bind', ['actions'], ['sales.quote.actions']),
  'sales.quote.issue': quoteWrite('issue', ['actions', 'policy', 'invoices', 'money'], ['sales.requests.get', 'sales.quote.actions'], 'id', true),
  'sales.policy.renewal': read('policy', 'policyId', ['policy'], one(POLICY_STATES)),
  'sales.policy.links': read('policy', 'policyId', ['policy', 'money', 'documents'], one(POLICY_STATES)),
  'sales.policy.invoices': read('policy', 'policyId', ['invoices'], one(POLICY_STATES)),
  'sales.policy.period-totals': read('policy', 'id', ['invoices', 'money'], one(POLICY_STATES)),
  // a POST that calculates and changes nothing (PL-INV-005)
  'sales.termination.premiums': read('policy', 'policyId', [], one(POLICY_STATES)),
  'sales.termination.terminate': {
    resource: 'policy',
    idParam: 'policyId',
    access: 'write',
    changes: ['policy', 'invoices', 'money', 'policy-actions'],
    shows: [],
    moneyMoving: true,
    quoteAction: null,
    requiredQuery: null,
    exercise: { states: POLICY_STATES, callers: TENANT_CALLERS, multiplicity: 'one', reread: ['sales.policy.links', 'sales.policy.invoices'] },
  },
  'sales.schemes.get': read('scheme', 'name', [], one(['absent', 'active'], ANY_CALLER)),
  'sales.customers.custom-view': read('policy', 'policyId', ['invoices'], one(POLICY_STATES), 'customerIdentity'),
  'sales.payments.insert': {
    resource: 'payment',
    idParam: null,
    access: 'write',
    changes: [],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: { states: [], callers: TENANT_CALLERS, multiplicity: 'none', reread: [] },
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
    exercise: { states: POLICY_STATES, callers: TENANT_CALLERS, multiplicity: 'one', reread: ['sales.policy.invoices', 'sales.policy.period-totals'] },
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
    exercise: { states: POLICY_STATES, callers: TENANT_CALLERS, multiplicity: 'one', reread: ['sales.policy.invoices'] },
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
    exercise: { states: POLICY_STATES, callers: TENANT_CALLERS, multiplicity: 'one', reread: ['sales.policy.links'] },
  },
  'sales.requests.get': read('request', 'requestId', [], one(['absent', 'active'])),
  'webhooks.events.list': read('event', null, [], { states: [], callers: ANY_CALLER, multiplicity: 'list', reread: [] }),
  'webhooks.subscription.create': {
    resource: 'subscription',
    idParam: null,
    access: 'write',
    changes: ['subscriptions'],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: { states: [], callers: USER_CALLERS, multiplicity: 'none', reread: ['webhooks.subscription.get', 'webhooks.subscriptions.list'] },
  },
  'webhooks.subscriptions.list': read('subscription', null, ['subscriptions'], { states: [], callers: USER_CALLERS, multiplicity: 'list', reread: [] }),
  'webhooks.subscription.get': read('subscription', 'id', ['subscriptions'], one(SUB_STATES, USER_CALLERS)),
  'webhooks.subscription.update': {
    resource: 'subscription',
    idParam: 'id',
    access: 'write',
    changes: ['subscriptions'],
    shows: [],
    moneyMoving: false,
    quoteAction: null,
    requiredQuery: null,
    exercise: { states: SUB_STATES, callers: USER_CALLERS, multiplicity: 'one', reread: ['webhooks.subscription.get', 'webhooks.subscriptions.list'] },
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
    exercise: { states: SUB_STATES, callers: USER_CALLERS, multiplicity: 'one', reread: ['webhooks.subscription.get', 'webhooks.subscriptions.list'] },
  },
}

export function factsOf(id: OperationId): OperationFacts {
  return OPERATION_FACTS[id]
}

/** A write that may change a view of an existing resource (the flight tracker serialises on it; a lost answer makes the model forget). */
export const changesExisting = (id: OperationId): boolean => OPERATION_FACTS[id].changes.length > 0

/** Whether the operation writes or shows the view. */
export const touches = (id: OperationId, view: View): boolean => OPERATION_FACTS[id].changes.includes(view) || OPERATION_FACTS[id].shows.includes(view)
