import { AsyncLocalStorage } from 'node:async_hooks'
import type { Verdict, Violation } from '../model/types'

/** What the model found on the answers a check received (helpers/model/). */
export interface InvariantTally {
  /** Invariant id -> answers it was evaluated on. */
  evaluated: Record<string, number>
  violations: Violation[]
}

interface RunningCheck {
  name: string
  invariants: InvariantTally
}

/**
 * The check whose body is running, carried through its awaits. In a multi-target run the checks of several
 * targets run at once in one worker, so vitest's global "current test" names whichever started last; the HTTP
 * exchanges of a check are attributed through this instead.
 */
const running = new AsyncLocalStorage<RunningCheck>()

export function withRunningCheck<T>(testName: string, body: () => T): T {
  return running.run({ name: testName, invariants: { evaluated: {}, violations: [] } }, body)
}

/** The full name ("block > check title") of the check running here, if any. */
export function runningCheck(): string | undefined {
  return running.getStore()?.name
}

/** Adds the model's verdict on one answer to the check that received it (outside any check: dropped). */
export function noteVerdict(verdict: Verdict): void {
  const tally = running.getStore()?.invariants
  if (!tally) return
  for (const id of verdict.evaluated) tally.evaluated[id] = (tally.evaluated[id] ?? 0) + 1
  tally.violations.push(...verdict.violations)
}

/** The invariants evaluated and broken so far by the running check. */
export function runningInvariants(): InvariantTally | undefined {
  return running.getStore()?.invariants
}
