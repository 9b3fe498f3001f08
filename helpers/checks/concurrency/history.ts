import { attachEvidence } from '../../client/evidence/evidence'
import type { HttpResult } from '../../client/http/types'
import { asClient } from '../../client/http/running-check'
import {
  checkPartitions,
  DEFAULT_BUDGET,
  type Budget,
  type Model,
  type Operation,
} from '../../oracle/linearizability/checker'
import { renderTimelineHtml, renderTimelineText, timelineRecord } from '../../oracle/linearizability/timeline'
import { shrinkHistory } from '../../oracle/linearizability/shrink'
import { ConformanceFailure } from '../failure'
import type { CheckContext } from '../check'

/**
 * The history of a concurrent check: each operation it sends with its caller, what it asked and what it saw, and
 * its interval (from before the request was handed to the client to after the answer was read: wider than the
 * target's, which can only allow more orders, never fewer). The check then has the whole history judged at once
 * (expectLinearizable): the answers of overlapping writes and the reads after them, together.
 */
export class CheckHistory<I, O> {
  readonly ops: Operation<I, O>[] = []

  /**
   * Sends one operation and records it. `outputOf` reads what the answer says in the model's terms; undefined leaves
   * the operation out of the history (an answer the check judges on its own, e.g. a 5xx).
   */
  async run(
    caller: string,
    input: I,
    send: () => Promise<HttpResult>,
    outputOf: (res: HttpResult) => O | undefined,
  ): Promise<HttpResult> {
    const call = performance.now()
    // the caller's calls are its own in the run's history too (a lane of its own in that timeline)
    const res = await asClient(caller, send)
    const ret = performance.now()
    const output = outputOf(res)
    if (output !== undefined) this.ops.push({ id: this.ops.length, caller, input, output, call, ret })
    return res
  }

  /** Records an operation whose output is known only later (a request's outcome read by polling). */
  add(caller: string, input: I, output: O, call: number, ret: number): void {
    this.ops.push({ id: this.ops.length, caller, input, output, call, ret })
  }
}

/** The checker ran out of its budget: the check is INCONCLUSIVE (errored), never a verdict either way. */
export class LinearizabilityUndecided extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'LinearizabilityUndecided'
  }
}

export interface Judged<S, I, O> {
  resource: string
  model: Model<S, I, O>
  history: CheckHistory<I, O>
}

/**
 * The histories (one per resource) are linearizable: some order of their operations that respects real time explains
 * every answer. Otherwise the check fails with the timeline of the resource that no order explains (text in the
 * finding, HTML attached); when the checker's budget is spent, the check errs as undecided (INCONCLUSIVE).
 */
export async function expectLinearizable(
  histories: Judged<any, any, any>[],
  o: { requirement: string; res?: HttpResult; budget?: Budget },
): Promise<void> {
  const parts = histories.map((h) => ({ key: h.resource, model: h.model, ops: h.history.ops }))
  const r = checkPartitions(parts, o.budget ?? DEFAULT_BUDGET)
  if (r.result === 'ok') return
  const shown = r.partitions.filter((p) => p.outcome.result !== 'ok')
  // each failing resource's history shrunk to the fewest operations that still fail (oracle/linearizability/shrink.ts)
  const records = shown.map((p) => {
    const s = shrinkHistory(p.partition.model, p.partition.ops, p.outcome)
    return timelineRecord(
      { resource: p.partition.key, model: p.partition.model, ops: s.ops, outcome: s.outcome },
      { total: p.partition.ops.length, ...(s.dropped ? { dropped: s.dropped } : {}) },
    )
  })
  const text = records.map(renderTimelineText).join('\n')
  await attachEvidence('timeline (linearizability)', records.map(renderTimelineHtml).join('\n'), 'text/html')
  if (r.result === 'unknown')
    throw new LinearizabilityUndecided(
      `the history could not be decided within the checker's budget: INCONCLUSIVE\n${text}`,
    )
  throw new ConformanceFailure({
    expected:
      `${o.requirement}: an order of the operations, respecting real time, that explains every answer ` +
      `(linearizability)`,
    actual: 'no order explains the answers: see the timeline',
    note: `timeline:\n${text}`,
    timeline: records,
    ...(o.res ? { res: o.res } : {}),
  })
}

/**
 * Whether two of the answers' requests were in flight at the same time, as sent (after any wait at the client's request
 * limiter: helpers/client/http/limiter.ts; each exchange carries its send and answer instants).
 */
export function sentTogether(answers: readonly HttpResult[]): boolean {
  const spans = answers.flatMap((r) =>
    r.exchange?.invokedAt && r.exchange.completedAt
      ? [[r.exchange.invokedAt.mono, r.exchange.completedAt.mono] as const]
      : [],
  )
  return spans.some(([a0, a1], i) => spans.some(([b0, b1], j) => j > i && a0 <= b1 && b0 <= a1))
}

/**
 * Runs a concurrent scenario (on fresh resources each time) until its writes were in flight together: a busy run can
 * hold one of them at the request limiter until the other is answered, and then nothing concurrent was tried. After
 * `attempts` scenarios none of which overlapped, the last is judged all the same (a sequential history is a history
 * too) and the check notes that concurrency was not exercised.
 */
export async function untilOverlapped<T extends { writes: HttpResult[] }>(
  c: CheckContext,
  scenario: (attempt: number) => Promise<T>,
  attempts = 3,
): Promise<T> {
  let last: T | undefined
  for (let i = 1; i <= attempts; i++) {
    last = await scenario(i)
    if (sentTogether(last.writes)) return last
  }
  c.note(
    `the concurrent writes were never in flight together in ${attempts} attempts (the run was busy): judged, but ` +
      `concurrency was not exercised`,
  )
  return last!
}
