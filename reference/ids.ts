import { randomUUID } from 'node:crypto'

/**
 * How a reference instance writes its ids (docs/contracts.md):
 * - 'integer' (default, the public documents' dialect): quote/policy, document, payment and event ids count up
 *   from 100001 and are JSON integers in bodies; request ids are UUIDs; webhook subscription ids are UUID strings.
 * - 'numeric': the same counter, but written as JSON strings ("100042"); request ids stay UUIDs.
 * - 'uuid': every id is a UUID string.
 * Records always hold ids as strings (path parameters are strings); wire() is applied where a body shows one.
 */
export type IdStyle = 'integer' | 'numeric' | 'uuid'

export class IdFactory {
  private next = 100_000

  constructor(private readonly style: IdStyle) {}

  /** A new ledger id (quote/policy, document, payment, invoice, event): digits, or a UUID in the 'uuid' style. */
  id(): string {
    if (this.style === 'uuid') return randomUUID()
    this.next += 1
    return String(this.next)
  }

  /** A new asynchronous request id: always a UUID (the documents type {requestId} as format uuid). */
  requestId(): string {
    return randomUUID()
  }

  /** A new webhook subscription id: a string (the webhooks document types it so), numeric in the 'numeric' style. */
  subscriptionId(): string {
    return this.style === 'numeric' ? this.id() : randomUUID()
  }

  /** The id as a response body shows it: a JSON integer in the 'integer' style, else the string. */
  wire(id: string): string | number {
    return this.style === 'integer' && /^[1-9][0-9]{0,14}$/.test(id) ? Number(id) : id
  }
}
