import { pollUntil, type PollResult } from '../polling/poll-until'
import type { WebhookReceiver } from './receiver'

/** Waits until every label has at least one notification, or the deadline. Never throws on timeout. */
export function waitForNotifications(receiver: WebhookReceiver, labels: string[], deadlineMs: number): Promise<PollResult<string[]>> {
  return pollUntil(
    async () => {
      const waiting = labels.filter((l) => receiver.for(l).length === 0)
      return waiting.length === 0
        ? { state: 'success', value: [], seen: 'all notified' }
        : { state: 'pending', value: waiting, seen: `waiting for ${waiting.length}` }
    },
    { name: 'webhook notifications', deadlineMs, initialDelayMs: 10, maxDelayMs: 200, minIntervalMs: 10 },
  )
}

/**
 * Watches for notifications that must NOT come (duplicates, other event types, after delete) for a
 * bounded window: their absence cannot be observed any other way. Not a speed assertion.
 */
export function quietWindow(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
