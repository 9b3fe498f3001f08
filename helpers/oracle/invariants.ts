import type { CheckMeta } from '../../common/spec'
import type { Verdict as ObservedVerdict, Violation as ObservedViolation } from '../client/http/observer'

/**
 * The invariants the model (helpers/oracle/) checks on every answer the run receives, in every suite. Each is a check
 * of its own: a stable id, the clause it follows from, the requirement. A violation fails the invariant's own entry in
 * checks.json, naming the checks that received the answers; the checks keep the outcome of their own assertions: one
 * defect, one failure, not one per check that happened to read (docs/model.md).
 */
export const INVARIANTS = [
  {
    id: 'WH-INV-001',
    spec: 'webhooks',
    section: '§4',
    requirement:
      'The subscription list shows every live subscription the run made for the caller, with its current event, url, ' +
      'createdAt and updatedAt.',
  },
  {
    id: 'WH-INV-002',
    spec: 'webhooks',
    section: '§4',
    requirement:
      'A deleted subscription is never listed, read, updated or deleted again (404); a live one is never answered ' +
      '404 to its owner.',
  },
  { id: 'WH-INV-003', spec: 'webhooks', section: '§2', requirement: 'The createdAt of a subscription never changes.' },
  {
    id: 'WH-INV-004',
    spec: 'webhooks',
    section: '§2',
    requirement:
      'updatedAt changes only with a successful update, and is strictly later after an update made more than the ' +
      "timestamps' resolution after the previous write.",
  },
  {
    id: 'WH-INV-005',
    spec: 'webhooks',
    section: '§2',
    requirement:
      'A subscription read back has the event and url last written: an update changes exactly the fields it names.',
  },
  {
    id: 'WH-INV-006',
    spec: 'webhooks',
    section: '§5',
    requirement: 'A subscription is never read, listed, updated or deleted by a caller other than its owner.',
  },
  {
    id: 'WH-INV-007',
    spec: 'webhooks',
    section: '§5',
    requirement: "A request with an expired token (past exp plus the profile's leeway) is never answered 2xx.",
  },
  {
    id: 'WH-INV-040',
    spec: 'webhooks',
    section: '§4',
    requirement:
      "Every entry of the subscription list is the same object as the subscription's own read (create, update or GET " +
      'answer since its last write): every field, the secret and every timestamp included.',
  },
  {
    id: 'WH-INV-080',
    spec: 'webhooks',
    section: '§4',
    requirement:
      'Every number of an answer is finite: a JSON number beyond the range of a double (1e999, read as Infinity) is ' +
      'no value a client can use (the bodies are JSON; RFC 8259 §6).',
  },
  {
    id: 'WH-INV-020',
    spec: 'webhooks',
    section: '§2',
    requirement:
      "A subscription's answers carry what the model knows of it: an update or read answers the id asked for (an " +
      'update also the event and url it was sent), a create answers a secret no other subscription of the run ' +
      'has, a delete answers success (docs/fields.md).',
  },
  {
    id: 'WH-INV-021',
    spec: 'webhooks',
    section: '§2',
    requirement:
      'A subscription shows the secret its create answer gave in every later answer: its read, its update and the ' +
      'list.',
  },
  {
    id: 'WH-INV-050',
    spec: 'webhooks',
    section: '§2, §4',
    requirement:
      "A subscription's history (its owner's updates, deletes and reads, overlapping or not) is linearizable: some " +
      'order that respects real time explains every answer; after a delete answered 200 it is gone for good.',
  },
  {
    id: 'SL-INV-001',
    spec: 'sales',
    section: '§3',
    requirement: 'A request status that reached success or failure never changes afterwards (status and policy id).',
  },
  {
    id: 'SL-INV-002',
    spec: 'sales',
    section: '§4',
    requirement:
      'Quote data read back equals what was last written: a partial update changes exactly the fields it names, a ' +
      'refused one nothing.',
  },
  {
    id: 'SL-INV-003',
    spec: 'sales',
    section: '§4',
    requirement: 'Quote data read back has the types the product schema declares (a number is not sent as a string).',
  },
  {
    id: 'SL-INV-004',
    spec: 'sales',
    section: '§3',
    requirement:
      "An operation the quote's current actions list does not offer is refused; one it offers is not refused.",
  },
  {
    id: 'SL-INV-005',
    spec: 'sales',
    section: '§3',
    requirement:
      'After a quote is declined, bound or issued, its actions list no longer offers that operation (a declined ' +
      'quote offers no change at all).',
  },
  {
    id: 'SL-INV-006',
    spec: 'sales',
    section: '§5',
    requirement:
      'A quote, request, document or policy of one tenant is never answered 2xx to a caller of another tenant.',
  },
  {
    id: 'SL-INV-007',
    spec: 'sales',
    section: '§5',
    requirement: "A request with an expired token (past exp plus the profile's leeway) is never answered 2xx.",
  },
  {
    id: 'SL-INV-008',
    spec: 'sales',
    section: '§4',
    requirement:
      'A document answers the same bytes every time, never the bytes of a document generated for another quote.',
  },
  {
    id: 'SL-INV-009',
    spec: 'sales',
    section: '§4',
    requirement:
      'Real-world quote data read back is byte for byte what was written: non-ASCII text (accents, CJK, ' +
      "right-to-left, emoji), strings at their maxLength, amounts with cents, values at the schema's bounds and " +
      'boundary dates (29 February, the 31st, 31 December).',
  },
  {
    id: 'SL-INV-010',
    spec: 'sales',
    section: '§3',
    requirement:
      'The actions list is final (rule 4): the list answered after a change tells that the change is done and holds ' +
      'until the next change; a locked quote is answered 204 (423 with long polling), never with a list that a ' +
      'later one replaces (an empty list followed by another breaks it).',
  },
  {
    id: 'SL-INV-040',
    spec: 'sales',
    section: '§4',
    requirement:
      'A generated or downloaded document is a complete, well-formed file of the media type it claims: a PDF opens ' +
      '(pdfjs-dist), ends with its file trailer (startxref pointing at its cross-reference section, %%EOF) and ' +
      'has at least one page.',
  },
  {
    id: 'SL-INV-041',
    spec: 'sales',
    section: '§4',
    requirement:
      "A quote's document is that quote's: its text names the quote it was generated for (profile " +
      'extensions.sales.documentSubject, default the quote id), on generation and on every download.',
  },
  {
    id: 'SL-INV-080',
    spec: 'sales',
    section: '§1',
    requirement:
      'Every number of an answer is finite: a JSON number beyond the range of a double (1e999, read as Infinity) is ' +
      'no amount or count a client can use (JSON over HTTP; RFC 8259 §6).',
  },
  {
    id: 'SL-INV-020',
    spec: 'sales',
    section: '§4',
    requirement:
      'The answer of a quote write echoes what was written: create, update (merged into the data last written), MTA ' +
      "(the blocks and policy fields sent over the policy's data) and calculate answer the quote data as " +
      'written, field by field (docs/fields.md).',
  },
  {
    id: 'SL-INV-021',
    spec: 'sales',
    section: '§3, §4',
    requirement:
      'Every quote answer names the quote it is about: a write or read answers the id asked for, a create or MTA a ' +
      'new id; a request status answers the request id asked for.',
  },
  {
    id: 'SL-INV-022',
    spec: 'sales',
    section: '§4',
    requirement:
      "A quote's financials follow their rules in every answer that shows them (calculate, get, calculation): tax, " +
      'broker and MGA commission = periodPremium x percentage / 100, total = periodPremium + tax + adminFeeSum, ' +
      'to the cent; installments = the count of the payment frequency; currency as written.',
  },
  {
    id: 'SL-INV-023',
    spec: 'sales',
    section: '§3, §4',
    requirement:
      "One quote's answers agree while nothing writes it: the calculate answer's financials are those its get and " +
      'calculation reads show; its status, version and schemaPath do not change between two answers with no ' +
      'write in between.',
  },
  {
    id: 'SL-INV-050',
    spec: 'sales',
    section: '§4',
    requirement:
      "A quote's history (its updates and the reads of its data, every check's, overlapping or not) is linearizable: " +
      'some order of them that respects real time explains every answer, an update counted done when the actions ' +
      "list after it says so; nothing written and answered 2xx is lost or mixed with another writer's.",
  },
  {
    id: 'SL-INV-051',
    spec: 'sales',
    section: '§3',
    requirement:
      "A quote's issues and the outcomes of their requests are linearizable against one policy per quote: whatever " +
      'number of issues were accepted, every request that succeeds names the same policy.',
  },
  {
    id: 'PL-INV-001',
    spec: 'sales',
    section: '§4',
    requirement: 'Period totals are numbers and balance = premium + fees - paid, after every operation.',
  },
  {
    id: 'PL-INV-002',
    spec: 'sales',
    section: '§1',
    requirement:
      'Money follows the money-moving operations: between two reads of the period totals, paid moves by exactly the ' +
      'allocations minus the credits, and the premium by the manual return premium of a termination; nothing ' +
      'else moves money.',
  },
  {
    id: 'PL-INV-003',
    spec: 'sales',
    section: '§3, §4',
    requirement:
      "The policy issued from a quote carries that quote's customer, insured objects and period as last written (and " +
      'the technical changes since), and the success of its issue request names the number the policy shows.',
  },
  {
    id: 'PL-INV-004',
    spec: 'sales',
    section: '§4',
    requirement:
      "A quote's views agree: its calculation's installments sum to its period premium, and its calculation and " +
      'installments schedule show the same installments, or both answer 409 not calculated (after a change and a ' +
      "new calculation, both the new one's).",
  },
  {
    id: 'PL-INV-005',
    spec: 'sales',
    section: '§4',
    requirement:
      "An operation changes only what it is for: a policy's number and inception date never change; its financials, " +
      'quotes and documents do not change with reads (renewal data, termination quote, links, invoices, totals, ' +
      'custom view) or a technical change.',
  },
  {
    id: 'PL-INV-006',
    spec: 'sales',
    section: '§1, §4',
    requirement:
      "One policy's money views agree at the same moment: its invoices' premiums sum to the period totals' premium " +
      "to the cent; the policy view's period premium is the totals' premium until an MTA or a termination moves " +
      "it; the customer custom view's installments are the policy's invoices (number, due date, premium), " +
      'likewise until an MTA or a termination changes the schedule.',
  },
  {
    id: 'PL-INV-050',
    spec: 'sales',
    section: '§1',
    requirement:
      "A policy's money history (the allocations to its invoices, the credits of those allocations and the reads of " +
      "its period totals, every check's, overlapping or not) is linearizable: some order that respects real time " +
      'explains every paid the totals show, paid moving by exactly the allocations minus the credits.',
  },
  {
    id: 'PL-INV-051',
    spec: 'sales',
    section: '§1, §4',
    requirement:
      "A payment's history (its allocations and the credits of their events, overlapping or not) is linearizable: in " +
      "some order that respects real time, no allocation answered 2xx takes more than the payment's amount less " +
      'what was allocated and not credited before it.',
  },
  {
    id: 'PL-INV-020',
    spec: 'sales',
    section: '§1, §4',
    requirement:
      'The answer of a money or policy write echoes the request: a payment its amount, date and reference; an ' +
      'allocation its paymentId and each allocation (invoice and amount, in order); a credit its event id; a ' +
      'termination quote its policy, type and date; a technical change its policy and the blocks it named.',
  },
  {
    id: 'PL-INV-021',
    spec: 'sales',
    section: '§1, §4',
    requirement:
      "A money or policy answer carries the model's state: a credit answers the payment, invoice and amount of the " +
      'allocation it reverses; an allocation new event ids; the policy view and totals the policy asked for and ' +
      'its tenant.',
  },
  {
    id: 'PL-INV-022',
    spec: 'sales',
    section: '§1, §4',
    requirement:
      'Money answers follow their rules, to the cent: a new payment has nothing allocated; an allocation leaves the ' +
      "payment's unallocated amount less the allocations; a credit reverses the event's amount; a manual " +
      "termination quote returns the sum asked; the policy view's financials follow the financials' rules " +
      "(commission = premium x percentage / 100); the totals' total = premium + fees.",
  },
  {
    id: 'PL-INV-023',
    spec: 'sales',
    section: '§4',
    requirement:
      "A policy's answer agrees with itself and with its other answers: the policy view's data.policy.status is its " +
      'meta.status; the renewal data carries the customer, insured objects, product fields and number the policy ' +
      'view last showed (no write of the policy in between).',
  },
] as const satisfies readonly CheckMeta[]

export type InvariantId = (typeof INVARIANTS)[number]['id']

export function invariant(id: InvariantId): CheckMeta {
  return INVARIANTS.find((i) => i.id === id)!
}

/** The invariant of an id as the observer hook carries it (a string; helpers/client/http/observer.ts), if it is one. */
export function invariantOf(id: string): CheckMeta | undefined {
  return INVARIANTS.find((i) => i.id === id)
}

/** A broken invariant of this catalogue: the observer hook's Violation with its id typed. */
export type Violation = ObservedViolation<InvariantId>
/** What one answer was checked against, with the ids typed. */
export type Verdict = ObservedVerdict<InvariantId>
