import type { DefectInfo } from './types'

const S = (section: string, description: string): DefectInfo => ({
  area: 'concurrency',
  clause: `sales-service.md ${section}`,
  description,
})
const W = (section: string, description: string): DefectInfo => ({
  area: 'concurrency',
  clause: `webhook-subscriptions.md ${section}`,
  description,
})

/**
 * Concurrent clients (issue 41): each defect is a race that only overlapping requests show; alone, every request is
 * served right. Each opens a window (an await of CONCURRENCY_WINDOW_MS) between reading the record and writing it,
 * which the faithful reference never does: its handlers read and write a record without yielding.
 */
export const CONCURRENCY_DEFECTS = {
  'concurrency-lost-update': S(
    '§4',
    'A quote update reads the quote data, waits, then writes its merge of what it read: of two overlapping updates ' +
      "the later write drops the earlier one's fields (a lost update).",
  ),
  'concurrency-torn-update': S(
    '§4',
    'A quote update writes its fields one at a time, a writer that finds another in flight in the reverse order: two ' +
      'overlapping updates of the same fields leave one field of each writer (a torn write).',
  ),
  'concurrency-calculate-reverts-update': S(
    '§4',
    'A calculation reads the quote, waits, then saves the whole quote it read with the financials: an update done ' +
      'meanwhile (answered 200) is undone.',
  ),
  'concurrency-calculation-cross-talk': S(
    '§4',
    'Overlapping calculations of different quotes are answered with the document of the quote whose calculation ' +
      "began last: one quote answered with another quote's data and numbers.",
  ),
  'concurrency-double-issue': S(
    '§3',
    'An issue checks that the quote may be issued, waits, then starts the request: two overlapping issues of one ' +
      'bound quote both start a request and both make a policy.',
  ),
  'concurrency-allocation-races-credit': S(
    '§1',
    "An allocation reads the payment's allocation events, waits, then writes them back with its own: a credit of one " +
      'of them done meanwhile (answered 200) is undone.',
  ),
  'concurrency-update-revives-deleted': W(
    '§4',
    'A subscription update finds the subscription, waits, then saves it: a delete done meanwhile (answered 200) is ' +
      'undone and the subscription is back.',
  ),
} as const satisfies Record<string, DefectInfo>

/** The window a racing handler of these defects leaves open between its read and its write. */
export const CONCURRENCY_WINDOW_MS = 1500

/** An await of the window (a plain timer: short, and it holds nothing when the reference closes). */
export function raceWindow(ms = CONCURRENCY_WINDOW_MS): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

/** How long a racing handler waits for a partner (another writer of the same record) before it goes on alone. */
export const PARTNER_WINDOW_MS = 3000

/**
 * A race that does not depend on timing: the first writer of a record waits (at most PARTNER_WINDOW_MS) for a second
 * one; the second wakes it and both go on together, each with what it read before. Alone, a write is only late. The
 * waiters are kept on the record itself (one reference instance's state).
 */
export function raceWithPartner(holder: object, ms = PARTNER_WINDOW_MS): Promise<void> {
  const h = holder as { racers?: Set<() => void> }
  const racers = (h.racers ??= new Set())
  if (racers.size > 0) {
    for (const wake of racers) wake()
    racers.clear()
    return Promise.resolve()
  }
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      racers.delete(done)
      resolve()
    }, ms)
    timer.unref()
    racers.add(done)
  })
}
