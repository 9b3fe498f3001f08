/**
 * Reads what `prism proxy` (without --errors, so every answer reaches the suite) logs about each exchange:
 * "The upstream call to <path> has returned <status>" and then, for that exchange, its validator lines
 * "Violation: request.query ..." / "Violation: response.body ..." at level error (✖) or warning (⚠).
 */
export interface PrismViolation {
  /** Path (with query) of the exchange the violation belongs to, as prism forwarded it. */
  path: string
  status: number
  level: 'error' | 'warning'
  /** 'request' or 'response', from the violation's location (request.query -> request). */
  side: 'request' | 'response'
  /** The location prism names: request, request.body, response.body, ... */
  location: string
  message: string
}

const UPSTREAM = /The upstream call to (\S+) has returned (\d{3})/
const VIOLATION = /\[VALIDATOR\]\s+(✖|⚠)\s+(error|warning)\s+Violation: ((request|response)(?:\.[a-z]+)?) (.*)$/

export function parsePrismLog(log: string): PrismViolation[] {
  const out: PrismViolation[] = []
  let last: { path: string; status: number } | undefined
  // eslint-disable-next-line no-control-regex
  for (const raw of log.split('\n')) {
    const line = raw.replace(/\u001b\[[0-9;]*m/g, '').replace(/\u0000/g, '')
    const up = UPSTREAM.exec(line)
    if (up) {
      last = { path: up[1]!, status: Number(up[2]) }
      continue
    }
    const v = VIOLATION.exec(line)
    if (v) out.push({ path: last?.path ?? '?', status: last?.status ?? 0, level: v[2] as 'error' | 'warning', side: v[4] as 'request' | 'response', location: v[3]!, message: v[5]!.trim() })
  }
  return out
}

/** A violation the proof accepts, and why (docs/contracts.md "The Prism proof"). */
export interface AcceptedViolation {
  name: string
  why: string
  side: 'request' | 'response'
  path: RegExp
  message: RegExp
}

/** The first rule that accepts the violation, or undefined. */
export function acceptedBy(v: PrismViolation, rules: readonly AcceptedViolation[]): AcceptedViolation | undefined {
  return rules.find((r) => r.side === v.side && r.path.test(v.path) && r.message.test(v.message))
}
