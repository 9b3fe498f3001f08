/**
 * The three verdicts of a run and their exit codes: the same for conformance, smoke, acceptance, sharded,
 * explore and every harness (README "Exit codes").
 */
export type Verdict = 'CONFORMS' | 'DOES NOT CONFORM' | 'INCONCLUSIVE'

export const EXIT = {
  /** every check of the selection ran, none failed, none errored */
  conforms: 0,
  /** at least one requirement failed against the target */
  doesNotConform: 1,
  /** usage or configuration error (a bad profile, a selection that matches no check); no request was sent */
  usage: 2,
  /** the run could not test: unreachable target, login refused, tool error, checks that errored or timed out */
  inconclusive: 3,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

export function exitCodeOf(verdict: Verdict): ExitCode {
  return verdict === 'CONFORMS' ? EXIT.conforms : verdict === 'DOES NOT CONFORM' ? EXIT.doesNotConform : EXIT.inconclusive
}
