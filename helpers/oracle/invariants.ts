import type { CheckMeta } from '../../common/spec'
import type { Verdict as ObservedVerdict, Violation as ObservedViolation } from '../client/http/observer'

/**
 * The invariants the model (helpers/oracle/) checks on every answer the run receives, in every suite. Each is a check
 * of its own: a stable id, the clause it follows from, the requirement. A violation fails the invariant's own entry in
 * checks.json, naming the checks that received the answers; the checks keep the outcome of their own assertions: one
 * defect, one failure, not one per check that happened to read (docs/model.md).
 */
export const INVARIANTS = [
  { id: 'WH-INV-001', spec: 'webhooks', section: '§4', requirement: "The subscription list shows every live subscription the run made for the caller, with its current event, url, createdAt and updatedAt." },
  { id: 'WH-INV-002', spec: 'webhooks', section: '§4', requirement: 'A deleted subscription is never listed, read, updated or deleted again (404); a live one is never answered 404 to its owner.' },
  { id: 'WH-INV-003', spec: 'webhooks', section: '§2', requirement: 'The createdAt of a subscription never changes.' },
  { id: 'WH-INV-004', spec: 'webhooks', section: '§2', requirement: 'updatedAt changes only with a successful update, and is strictly later after an update made more than the timestamps\' resolution after the previous write.' },
  { id: 'WH-INV-005', spec: 'webhooks', section: '§2', requirement: 'A subscription read back has the event and url last written: an update changes exactly the fields it names.' },
  { id: 'WH-INV-006', spec: 'webhooks', section: '§5', requirement: "A subscription is never read, listed, updated or deleted by a caller other than its owner." },
  { id: 'WH-INV-007', spec: 'webhooks', section: '§5', requirement: 'A request with an expired token (past exp plus the profile\'s leeway) is never answered 2xx.' },
  { id: 'WH-INV-050', spec: 'webhooks', section: '§2, §4', requirement: "A subscription's history (its owner's updates, deletes and reads, overlapping or not) is linearizable: some order that respects real time explains every answer; after a delete answered 200 it is gone for good." },
  { id: 'SL-INV-001', spec: 'sales', section: '§3', requirement: 'A request status that reached success or failure never changes afterwards (status and policy id).' },
  { id: 'SL-INV-002', spec: 'sales', section: '§4', requirement: 'Quote data read back equals what was last written: a partial update changes exactly the fields it names, a refused one nothing.' },
  { id: 'SL-INV-003', spec: 'sales', section: '§4', requirement: 'Quote data read back has the types the product schema declares (a number is not sent as a string).' },
  { id: 'SL-INV-004', spec: 'sales', section: '§3', requirement: 'An operation the quote\'s current actions list does not offer is refused; one it offers is not refused.' },
  { id: 'SL-INV-005', spec: 'sales', section: '§3', requirement: 'After a quote is declined, bound or issued, its actions list no longer offers that operation (a declined quote offers no change at all).' },
  { id: 'SL-INV-006', spec: 'sales', section: '§5', requirement: "A quote, request, document or policy of one tenant is never answered 2xx to a caller of another tenant." },
  { id: 'SL-INV-007', spec: 'sales', section: '§5', requirement: 'A request with an expired token (past exp plus the profile\'s leeway) is never answered 2xx.' },
  { id: 'SL-INV-008', spec: 'sales', section: '§4', requirement: 'A document answers the same bytes every time, never the bytes of a document generated for another quote.' },
  { id: 'SL-INV-009', spec: 'sales', section: '§4', requirement: 'Real-world quote data read back is byte for byte what was written: non-ASCII text (accents, CJK, right-to-left, emoji), strings at their maxLength, amounts with cents, values at the schema\'s bounds and boundary dates (29 February, the 31st, 31 December).' },
  { id: 'SL-INV-010', spec: 'sales', section: '§3', requirement: "The actions list is final (rule 4): the list answered after a change tells that the change is done and holds until the next change; a locked quote is answered 204 (423 with long polling), never with a list that a later one replaces (an empty list followed by another breaks it)." },
  { id: 'SL-INV-050', spec: 'sales', section: '§4', requirement: "A quote's history (its updates and the reads of its data, every check's, overlapping or not) is linearizable: some order of them that respects real time explains every answer, an update counted done when the actions list after it says so; nothing written and answered 2xx is lost or mixed with another writer's." },
  { id: 'SL-INV-051', spec: 'sales', section: '§3', requirement: "A quote's issues and the outcomes of their requests are linearizable against one policy per quote: whatever number of issues were accepted, every request that succeeds names the same policy." },
  { id: 'PL-INV-001', spec: 'sales', section: '§4', requirement: 'Period totals are numbers and balance = premium + fees - paid, after every operation.' },
  { id: 'PL-INV-002', spec: 'sales', section: '§1', requirement: 'Money follows the money-moving operations: between two reads of the period totals, paid moves by exactly the allocations minus the credits, and the premium by the manual return premium of a termination; nothing else moves money.' },
  { id: 'PL-INV-003', spec: 'sales', section: '§3, §4', requirement: "The policy issued from a quote carries that quote's customer, insured objects and period as last written (and the technical changes since), and the success of its issue request names the number the policy shows." },
  { id: 'PL-INV-004', spec: 'sales', section: '§4', requirement: "A quote's views agree: its calculation's installments sum to its period premium, and its calculation and installments schedule show the same installments, or both answer 409 not calculated (after a change and a new calculation, both the new one's)." },
  { id: 'PL-INV-005', spec: 'sales', section: '§4', requirement: "An operation changes only what it is for: a policy's number and inception date never change; its financials, quotes and documents do not change with reads (renewal data, termination quote, links, invoices, totals, custom view) or a technical change." },
  { id: 'PL-INV-006', spec: 'sales', section: '§1, §4', requirement: "One policy's money views agree at the same moment: its invoices' premiums sum to the period totals' premium to the cent; the policy view's period premium is the totals' premium until an MTA or a termination moves it; the customer custom view's installments are the policy's invoices (number, due date, premium), likewise until an MTA or a termination changes the schedule." },
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
