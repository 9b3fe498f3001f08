/**
 * Fault injection settings of the reference service, from a compact spec such as
 * "503=0.05,latency=0-200,seed=7" (REFERENCE_CHAOS, or --chaos on the CLI).
 */
export interface ChaosOptions {
  seed: number
  /** Added latency before handling, uniform in [minMs, maxMs]. */
  latency?: { minMs: number; maxMs: number }
  /** Fraction of requests answered 503 with Retry-After before they are handled. */
  unavailable: number
  /** Retry-After (seconds) of those 503s. */
  retryAfterSeconds: number
  /** Fraction of requests whose connection is reset before they are handled. */
  reset: number
  /** Fraction of responses whose body is sent slowly, in chunks over slowMs. */
  slow: number
  slowMs: number
  /** Fraction of responses replaced by garbage after handling (an HTML error page or truncated JSON). */
  garbage: number
  garbageKind: 'html' | 'truncated' | 'mixed'
  /**
   * Which methods the faults (503, reset, garbage) hit: 'idempotent' (GET, HEAD, PUT, DELETE; the
   * default, so that a conforming client stays green) or 'all' (POST too: proves POSTs are not resent).
   * Latency and slow bodies hit every method.
   */
  methods: 'idempotent' | 'all'
}

export const CHAOS_KEYS = [
  'seed',
  'latency',
  '503',
  'retryAfter',
  'reset',
  'slow',
  'slowMs',
  'garbage',
  'garbageKind',
  'methods',
] as const

export const NO_CHAOS: Readonly<ChaosOptions> = Object.freeze({
  seed: 1,
  unavailable: 0,
  retryAfterSeconds: 0,
  reset: 0,
  slow: 0,
  slowMs: 300,
  garbage: 0,
  garbageKind: 'mixed',
  methods: 'idempotent',
})

/** A chaos spec that does not parse. The message names the offending field. */
export class ChaosSpecError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ChaosSpecError'
  }
}

function fraction(key: string, v: string): number {
  const n = Number(v)
  if (!/^\d*\.?\d+$/.test(v) || n < 0 || n > 1)
    throw new ChaosSpecError(`field '${key}': expected a fraction between 0 and 1, got '${v}'`)
  return n
}

function integer(key: string, v: string, max: number): number {
  if (!/^\d+$/.test(v) || Number(v) > max)
    throw new ChaosSpecError(`field '${key}': expected an integer between 0 and ${max}, got '${v}'`)
  return Number(v)
}

/** Parses "key=value,key=value". Throws ChaosSpecError naming the field. */
export function parseChaos(spec: string): ChaosOptions {
  const o: ChaosOptions = { ...NO_CHAOS }
  const seen = new Set<string>()
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=')
    if (eq <= 0) throw new ChaosSpecError(`'${part}': expected key=value (keys: ${CHAOS_KEYS.join(', ')})`)
    const key = part.slice(0, eq).trim()
    const v = part.slice(eq + 1).trim()
    if (seen.has(key)) throw new ChaosSpecError(`field '${key}': given twice`)
    seen.add(key)
    switch (key) {
      case 'seed':
        o.seed = integer(key, v, 2 ** 32 - 1)
        break
      case 'latency': {
        const m = /^(\d+)(?:-(\d+))?$/.exec(v)
        if (!m)
          throw new ChaosSpecError(`field 'latency': expected a range in ms like 0-200 (or one number), got '${v}'`)
        const minMs = Number(m[1])
        const maxMs = m[2] === undefined ? minMs : Number(m[2])
        if (maxMs < minMs || maxMs > 60_000)
          throw new ChaosSpecError(`field 'latency': expected min-max with min <= max <= 60000, got '${v}'`)
        o.latency = { minMs, maxMs }
        break
      }
      case '503':
        o.unavailable = fraction(key, v)
        break
      case 'retryAfter':
        o.retryAfterSeconds = integer(key, v, 3600)
        break
      case 'reset':
        o.reset = fraction(key, v)
        break
      case 'slow':
        o.slow = fraction(key, v)
        break
      case 'slowMs':
        o.slowMs = integer(key, v, 60_000)
        break
      case 'garbage':
        o.garbage = fraction(key, v)
        break
      case 'garbageKind':
        if (v !== 'html' && v !== 'truncated' && v !== 'mixed')
          throw new ChaosSpecError(`field 'garbageKind': expected html, truncated or mixed, got '${v}'`)
        o.garbageKind = v
        break
      case 'methods':
        if (v !== 'idempotent' && v !== 'all')
          throw new ChaosSpecError(`field 'methods': expected idempotent or all, got '${v}'`)
        o.methods = v
        break
      default:
        throw new ChaosSpecError(`unknown field '${key}' (known: ${CHAOS_KEYS.join(', ')})`)
    }
  }
  if (o.unavailable + o.reset + o.garbage > 1)
    throw new ChaosSpecError(`fields '503resetgarbage': fractions add up to more than 1`)
  return o
}

/** The spec back as text (printed in logs and reports). */
export function formatChaos(o: ChaosOptions): string {
  const parts = [`seed=${o.seed}`]
  if (o.latency) parts.push(`latency=${o.latency.minMs}-${o.latency.maxMs}`)
  if (o.unavailable) parts.push(`503=${o.unavailable}`, `retryAfter=${o.retryAfterSeconds}`)
  if (o.reset) parts.push(`reset=${o.reset}`)
  if (o.slow) parts.push(`slow=${o.slow}`, `slowMs=${o.slowMs}`)
  if (o.garbage) parts.push(`garbage=${o.garbage}`, `garbageKind=${o.garbageKind}`)
  parts.push(`methods=${o.methods}`)
  return parts.join(',')
}
