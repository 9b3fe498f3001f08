import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BroadcastChannel } from 'node:worker_threads'
import { safeText } from '../evidence/redact'
import { trafficDir } from '../../../common/report-paths'
import { DEFAULT_BREAKER, type BreakerSettings } from '../../../common/config/http-defaults'

export { DEFAULT_BREAKER, type BreakerSettings }

/**
 * The run-wide circuit breaker (docs/reliability.md, "A target that stops answering"): when a target's origin lets
 * `expiries` exchanges in a row pass their deadline, or an exchange expires after no answer from it for `silenceMs`,
 * the breaker of that origin opens: every later request to it fails at once (BreakerOpen), and every check that has
 * not run yet is reported blocked with the cause, which names the last operations that got no answer. The run then
 * ends within seconds as INCONCLUSIVE instead of one exchange deadline after another (a silent target held a run for
 * 326 s).
 *
 * Run-wide: the worker threads tell each other on a BroadcastChannel, and the opening thread leaves the cause in the
 * run's traffic folder (cleared at the start of every run), where a thread that starts later reads it. Like the
 * run's redactor, this is the one module-level state of its kind: a fact about the run, not about a check.
 */

export const BREAKER_CHANNEL = 'ledger-conformance:breaker'
/** How many of the last unanswered operations the cause names. */
const NAMED = 3

/** A request not sent: the target's origin stopped answering earlier in the run. Never retried. */
export class BreakerOpen extends Error {
  constructor(
    readonly origin: string,
    readonly cause_: string,
  ) {
    super(cause_)
    this.name = 'BreakerOpen'
  }
}

type Message =
  | { kind: 'answer'; origin: string; at: number }
  | { kind: 'expiry'; origin: string; label: string; at: number }
  | { kind: 'open'; origin: string; cause: string }

interface OriginState {
  consecutive: number
  lastAnswerAt: number
  /** When this thread last told the others of an answer (at most once a second). */
  postedAnswerAt: number
  last: string[]
  open?: string
}

/** The breaker of every origin, in this thread (see the module's comment for why it is module-level). */
class Breakers {
  private readonly origins = new Map<string, OriginState>()
  private channel: BroadcastChannel | undefined
  private readonly readFiles = new Set<string>()

  private listen(): BroadcastChannel | undefined {
    if (this.channel) return this.channel
    try {
      this.channel = new BroadcastChannel(BREAKER_CHANNEL)
      ;(this.channel as unknown as { unref?: () => void }).unref?.()
      this.channel.onmessage = (e: unknown) => this.apply((e as { data: Message }).data, false)
    } catch {
      this.channel = undefined
    }
    return this.channel
  }

  private state(origin: string): OriginState {
    let s = this.origins.get(origin)
    if (!s) {
      s = { consecutive: 0, lastAnswerAt: Date.now(), postedAnswerAt: 0, last: [] }
      this.origins.set(origin, s)
    }
    return s
  }

  /** The cause when the origin's breaker is open (also when another thread opened it), else undefined. */
  openCause(origin: string): string | undefined {
    this.listen()
    const s = this.state(origin)
    if (s.open) return s.open
    if (!this.readFiles.has(origin)) {
      this.readFiles.add(origin)
      const file = breakerFile(origin)
      try {
        if (existsSync(file)) s.open = (JSON.parse(readFileSync(file, 'utf8')) as { cause: string }).cause
      } catch {
        // unreadable: this thread learns it from the channel or from its own expiries
      }
    }
    return s.open
  }

  answered(origin: string): void {
    this.apply({ kind: 'answer', origin, at: Date.now() }, true)
  }

  expired(origin: string, label: string, settings: BreakerSettings): void {
    this.apply({ kind: 'expiry', origin, label, at: Date.now() }, true, settings)
  }

  private apply(m: Message, own: boolean, settings: BreakerSettings = DEFAULT_BREAKER): void {
    const s = this.state(m.origin)
    // an answer is told at most once a second (or at once after an expiry): the others' silence clock stays right
    if (own && (m.kind !== 'answer' || s.consecutive > 0 || m.at - s.postedAnswerAt >= 1000)) {
      if (m.kind === 'answer') s.postedAnswerAt = m.at
      this.listen()?.postMessage(m)
    }
    if (m.kind === 'open') {
      s.open ??= m.cause
      return
    }
    if (m.kind === 'answer') {
      s.consecutive = 0
      s.lastAnswerAt = Math.max(s.lastAnswerAt, m.at)
      return
    }
    s.consecutive += 1
    s.last = [...s.last.filter((l) => l !== m.label), m.label].slice(-NAMED)
    if (s.open || !own) return
    const silentMs = m.at - s.lastAnswerAt
    if (s.consecutive >= settings.expiries || silentMs >= settings.silenceMs) {
      const why =
        s.consecutive >= settings.expiries
          ? `${s.consecutive} exchanges in a row got no complete response within their deadline (profile ` +
            `http.breakerExpiries, ${settings.expiries})`
          : `no answer for ${Math.round(silentMs / 1000)} s (profile http.breakerSilenceMs, ${settings.silenceMs})`
      this.open(
        m.origin,
        `the target at ${m.origin} stopped answering: ${why}; the last without an answer: ${s.last.join('; ')}. ` +
          `Every check not yet run is blocked; the run is INCONCLUSIVE`,
      )
    }
  }

  /**
   * An answer no client can read (a header section past every client's limit: helpers/client/http/send.ts): the breaker
   * opens at once, naming the request, so that it is one finding, not one error per check.
   */
  unreadable(origin: string, label: string, why: string): void {
    if (this.state(origin).open) return
    this.open(
      origin,
      `the target at ${origin} answered ${label} with an answer no client can read (${why}). Every check not yet run ` +
        `is blocked; the run is INCONCLUSIVE`,
    )
  }

  private open(origin: string, cause: string): void {
    const s = this.state(origin)
    s.open = safeText(cause)
    try {
      mkdirSync(trafficDir(), { recursive: true })
      writeFileSync(breakerFile(origin), JSON.stringify({ origin, cause: s.open }))
    } catch {
      // the channel still tells the other threads
    }
    this.listen()?.postMessage({ kind: 'open', origin, cause: s.open } satisfies Message)
  }
}

function breakerFile(origin: string): string {
  return join(trafficDir(), `breaker-${createHash('sha256').update(origin).digest('hex').slice(0, 16)}.json`)
}

const RUN = new Breakers()

/** The run's breakers in this thread. */
export function runBreakers(): Breakers {
  return RUN
}

export type { Breakers }

/** The causes of the breakers this run opened (read from its traffic folder by the summary reporter). */
export function openBreakerCauses(dir: string = trafficDir()): string[] {
  if (!existsSync(dir)) return []
  const out: string[] = []
  for (const f of readdirSync(dir)) {
    if (!/^breaker-[0-9a-f]+\.json$/.test(f)) continue
    try {
      out.push((JSON.parse(readFileSync(join(dir, f), 'utf8')) as { cause: string }).cause)
    } catch {
      // half-written: the blocked checks carry the cause
    }
  }
  return out
}
