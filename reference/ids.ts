import { randomUUID } from 'node:crypto'

/** Makes ids for one reference instance, in the configured style. Always strings. */
export class IdFactory {
  private next = 100_000

  constructor(private readonly style: 'uuid' | 'numeric') {}

  id(): string {
    if (this.style === 'numeric') {
      this.next += 1
      return String(this.next)
    }
    return randomUUID()
  }
}
