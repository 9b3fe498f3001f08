import { pollUntil, type PollResult } from '../../client/polling/poll-until'
import type { ExpectedNotifications } from './expected-notifications'
import type { ReceivedNotification, WebhookReceiver } from './receiver'

/**
 * Waits until every label has at least one notification, or the deadline. Never throws on timeout.
 * `stop`: a reason to give up at once (e.g. the notification went to the old url instead): the outcome is 'failure'.
 */
export function waitForNotifications(
  receiver: WebhookReceiver,
  labels: string[],
  deadlineMs: number,
  stop?: () => string | undefined,
): Promise<PollResult<string[]>> {
  return pollUntil(
    async () => {
      const waiting = labels.filter((l) => receiver.for(l).length === 0)
      if (waiting.length === 0) return { state: 'success', value: [], seen: 'all notified' }
      const stopped = stop?.()
      return stopped
        ? { state: 'failure', value: waiting, seen: stopped }
        : { state: 'pending', value: waiting, seen: `waiting for ${waiting.length}` }
    },
    { name: 'webhook notifications', deadlineMs, initialDelayMs: 10, maxDelayMs: 200, minIntervalMs: 10 },
  )
}

export interface SettleOptions {
  settleMs: number
  /** How long after the last event an expected notification may still come (the window starts when it does). */
  deadlineMs: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/**
 * Waits for the end of the settle window (ExpectedNotifications.settleEnd): notifications that must NOT come (late
 * duplicates, old url or event type, after delete) can only be seen not to come over a bounded window. The window
 * runs from the events on, so whatever the suite did since then counts: only the rest of it is waited here.
 * Returns how long it waited (ms). Not a speed assertion.
 */
export async function waitSettled(
  expected: ExpectedNotifications,
  received: (endpoint: string) => ReceivedNotification[],
  o: SettleOptions,
): Promise<number> {
  const now = o.now ?? Date.now
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const start = now()
  for (;;) {
    const end = expected.settleEnd(received, o.settleMs, o.deadlineMs)
    const t = now()
    if (end !== undefined && t >= end) return t - start
    if (end === undefined && expected.lastEmitAt() === undefined) return 0
    await sleep(Math.max(1, Math.min(end === undefined ? 100 : end - t, 250)))
  }
}
