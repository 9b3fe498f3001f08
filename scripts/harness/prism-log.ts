/**
 * Reads what `prism proxy` (without --errors, so every answer reaches the suite) logs about each exchange:
 * "The upstream call to <path> has returned <status>" and then, for that exchange, its validator lines
 * "Violation: request.query ..." / "Violation: response.body ..." at level error (✖) or warning (⚠).
 */
export interface PrismViolation {
  /** Method of the exchange (from prism's "Forwarding" line), lower case; '?' when not seen. */
  method: string
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
const FORWARDING = /Forwarding "([a-z]+)" request to /
// the location may name a parameter too: request.path.requestid, request.header, response.body
const VIOLATION = /\[VALIDATOR\]\s+(✖|⚠)\s+(error|warning)\s+Violation: ((request|response)(?:\.[A-Za-z0-9_-]+)*) (.*)$/

export function parsePrismLog(log: string): PrismViolation[] {
  const out: PrismViolation[] = []
  let last: { path: string; status: number; method: string } | undefined
  let method = '?'
  for (const raw of log.split('\n')) {
    const line = raw.replace(/\u001b\[[0-9;]*m/g, '').replace(/\u0000/g, '')
    const fw = FORWARDING.exec(line)
    if (fw) {
      method = fw[1]!
      continue
    }
    const up = UPSTREAM.exec(line)
    if (up) {
      last = { path: up[1]!, status: Number(up[2]), method }
      continue
    }
    const v = VIOLATION.exec(line)
    if (v)
      out.push({
        method: last?.method ?? '?',
        path: last?.path ?? '?',
        status: last?.status ?? 0,
        level: v[2] as 'error' | 'warning',
        side: v[4] as 'request' | 'response',
        location: v[3]!,
        message: v[5]!.trim(),
      })
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

/**
 * The contract-check kind (helpers/client/contracts/openapi.ts ContractFindingKind) a prism violation is, or undefined
 * for a
 * line that names no kind the suite judges (docs/contracts.md "The Prism comparison").
 */
export function prismKind(
  v: PrismViolation,
): 'request' | 'response' | 'response-headers' | 'media-type' | 'status' | 'not-described' | undefined {
  // an operation the document does not hold: the suite lists it among the exchanges no document holds
  if (/^Selected route not found/.test(v.message)) return 'not-described'
  if (v.side === 'request') return 'request'
  if (/^Unable to match the returned status code/.test(v.message)) return 'status'
  if (/media type/i.test(v.message)) return 'media-type'
  // a declared response header missing or not matching its schema (location response.header.<name>)
  if (/^response\.header/.test(v.location)) return 'response-headers'
  return 'response'
}
