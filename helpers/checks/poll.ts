import * as allure from 'allure-js-commons'
import { attachEvidence } from '../client/evidence/evidence'
import { safeText } from '../client/evidence/redact'
import { describePoll, type PollResult } from '../client/polling/poll-until'
import { ConformanceFailure } from './failure'

/** Attaches the poll trace (attempt count, elapsed time, states seen) to the report. */
export async function reportPoll(result: PollResult<unknown>): Promise<void> {
  await attachEvidence(`poll: ${result.name}`, describePoll(result), 'text/plain')
  await allure.parameter(
    safeText(`poll ${result.name}`),
    `${result.outcome}, ${result.attempts.length} attempts, ${result.elapsedMs} ms`,
  )
}

/**
 * Polling ended in success; otherwise the failure names what was last seen. `owner`: the check whose requirement that
 * success is, when it is another check's (FailureDetail.owner).
 */
export async function expectPollSuccess<T>(
  result: PollResult<T>,
  what: string,
  o: { owner?: string } = {},
): Promise<T> {
  await reportPoll(result)
  if (result.outcome !== 'success') {
    const res = (result.last?.value as { res?: import('../client/http/types').HttpResult } | undefined)?.res
    throw new ConformanceFailure({
      expected: `${what} to reach success`,
      expectation: { kind: 'poll', what },
      actual:
        `${result.outcome} after ${result.attempts.length} attempt(s) in ${result.elapsedMs} ms; last ` +
        `seen: ${result.last?.seen ?? 'nothing'}`,
      ...(res ? { res } : {}),
      ...(o.owner ? { owner: o.owner } : {}),
    })
  }
  return result.value as T
}

/**
 * The lock was released: polling ended on an unlocked answer (200), whatever its body; the shape of the actions
 * answer is SL-CON-001's requirement, not the lock's. A lock held past the deadline, or an error status, fails.
 */
export async function expectReleased<T extends { res: import('../client/http/types').HttpResult }>(
  result: PollResult<T>,
  what: string,
): Promise<void> {
  await reportPoll(result)
  const res = result.last?.value.res
  if (result.outcome === 'success' || (result.outcome === 'failure' && res?.status === 200)) return
  throw new ConformanceFailure({
    expected: `${what} to be released (an unlocked answer)`,
    expectation: { kind: 'poll', what },
    actual:
      `${result.outcome} after ${result.attempts.length} attempt(s) in ${result.elapsedMs} ms; last ` +
      `seen: ${result.last?.seen ?? 'nothing'}`,
    ...(res ? { res } : {}),
  })
}
