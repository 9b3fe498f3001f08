/**
 * A linearizability finding's timeline as data (issue 41): the resource's operations over real time, who sent each,
 * what it asked and what it saw, and the longest orders the checker could build with why nothing could follow them.
 * Made by helpers/oracle/linearizability/timeline.ts, carried by a Violation or a FailureRecord into checks.json, and
 * rendered only at the edges (the console's text, conformance.html's lanes, the Allure attachment).
 */
export interface TimelineRecord {
  /** "quote 100004", "the money of policy 7". */
  resource: string
  /** The sequential specification it was held to ("quote data", "subscription"). */
  model: string
  result: 'ok' | 'illegal' | 'unknown'
  /** The checker's verdict in words ("NOT linearizable: ..."). */
  verdict: string
  /** Operations the history had before it was shrunk (equal to ops.length when nothing could be dropped). */
  total: number
  /** What the shrinking dropped, in words, when it dropped anything. */
  shrunk?: string
  /** From the first invocation to the last answer, milliseconds. */
  spanMs: number
  /** The operations shown, numbered #0.. in the order of the history; times in ms from the first invocation. */
  ops: TimelineOperation[]
  /** The longest orders the model accepted (the first is the longest), each with the state it reached. */
  orders: TimelineOrder[]
}

export interface TimelineOperation {
  n: number
  /** Who sent it: the check's own title, or a caller of the check ("writer 1"). */
  caller: string
  /** What it asked and what it saw ("update {...} -> ok"). */
  what: string
  startMs: number
  endMs: number
}

export interface TimelineOrder {
  /** Operation numbers in the order the model accepted them. */
  order: number[]
  /** The state the order reached. */
  state: string
  /** Each operation left out, and why it cannot come next. */
  stuck: { n: number; why: string }[]
}
