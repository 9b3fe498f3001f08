/**
 * Which writes were in flight while a call ran, per resource key. Answers that overlapped a write on the same
 * resource (concurrency checks, out-of-order answers) are not judged: either order would be right.
 */
export class Flights {
  private seq = 0
  private readonly writes = new Map<string, { inFlight: number; lastBegin: number }>()

  /** A call begins: its sequence number, and whether a write on any of its keys was already in flight. */
  begin(keys: readonly string[], write: boolean): { seq: number; overlapped: boolean } {
    const seq = ++this.seq
    let overlapped = false
    for (const k of keys) {
      const w = this.writes.get(k) ?? { inFlight: 0, lastBegin: 0 }
      if (w.inFlight > 0) overlapped = true
      if (write) {
        w.inFlight += 1
        w.lastBegin = seq
      }
      this.writes.set(k, w)
    }
    return { seq, overlapped }
  }

  /** A call ends: true when it overlapped a write on one of its keys (begun before it ended, other than itself). */
  end(keys: readonly string[], begun: { seq: number; overlapped: boolean }, write: boolean): boolean {
    let overlapped = begun.overlapped
    for (const k of keys) {
      const w = this.writes.get(k)
      if (!w) continue
      if (w.lastBegin > begun.seq) overlapped = true
      if (write) w.inFlight -= 1
    }
    return overlapped
  }
}
