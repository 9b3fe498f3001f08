import { ScopedValue } from './scoped'
import type { Verdict, Violation } from './observer'

/** What the model found on the answers a check received (helpers/oracle/). */
export interface InvariantTally {
  /** Invariant id -> answers it was evaluated on. */
  evaluated: Record<string, number>
  violations: Violation[]
  /** Real-world data class -> leaves of that class the check's requests wrote (helpers/oracle/real-world.ts). */
  sent?: Record<string, number>
  /** Exercise-model cell -> answers that exercised it (helpers/oracle/exercise-model.ts). */
  exercised?: Record<string, number>
  /** Invariants left undecided on the check's answers (the linearizability checker's budget spent). */
  undecided?: { invariant: string; resource: string }[]
}

/**
 * One published-contract finding on an answer the check received (helpers/client/contracts/openapi-sink.ts): a contract
 * check of its own, `CT-<operation>-<kind>`, judged on every check's exchanges (runner/run/results/contract-checks.ts).
 */
export interface ContractNote {
  /** The contract check: `CT-<operation>-<kind>`. */
  id: string
  operation: string
  kind: string
  /** fail: the contract check fails; warn: it is a deviation (the profile's `contract` / deviations). */
  policy: 'warn' | 'fail'
  document: string
  pointer: string
  expected: string
  actual: string
  /** `GET /path (status)`. */
  exchange: string
}

interface RunningCheck {
  /** Full name ("block > check title"). */
  name: string
  invariants: InvariantTally
  contract: ContractNote[]
  /**
   * The dependent chain the check is part of: its enclosing block when the block runs its checks in order (they may
   * depend on each other: a lifecycle, a setup shared through the block), the check itself when it runs concurrently
   * with its siblings. The bench measures the run against its longest chain (docs/reliability.md#speed).
   */
  chain: string
  /** The check runs concurrently with its siblings: nothing waits for its requests (helpers/client/http/limiter.ts). */
  independent: boolean
  /** One of the clients a check plays at once (a concurrent check's writer): its own lane in a history's timeline. */
  client?: string
}

/**
 * The check whose body is running, carried through its awaits. In a multi-target run, and in a lane
 * (runner/run/targets/lanes.ts), the checks of several suites run at once in one worker, so vitest's global "current
 * test" names whichever started last; the HTTP exchanges of a check are attributed through this instead.
 */
const running = new ScopedValue<RunningCheck>('running check')

export function withRunningCheck<T>(
  testName: string,
  body: () => T,
  chain: { name?: string; independent?: boolean } = {},
): T {
  return running.run(
    {
      name: testName,
      invariants: { evaluated: {}, violations: [] },
      contract: [],
      chain: chain.name ?? testName,
      independent: chain.independent ?? false,
    },
    body,
  )
}

/** The full name ("block > check title") of the check running here, if any. */
export function runningCheck(): string | undefined {
  return running.get()?.name
}

/** Adds the model's verdict on one answer to the check that received it (outside any check: dropped). */
export function noteVerdict(verdict: Verdict): void {
  const tally = running.get()?.invariants
  if (!tally) return
  for (const id of verdict.evaluated) tally.evaluated[id] = (tally.evaluated[id] ?? 0) + 1
  tally.violations.push(...verdict.violations)
  if (verdict.undecided && verdict.undecided.length > 0) (tally.undecided ??= []).push(...verdict.undecided)
  for (const c of verdict.sent ?? []) {
    tally.sent ??= {}
    tally.sent[c] = (tally.sent[c] ?? 0) + 1
  }
  for (const c of verdict.exercised ?? []) {
    tally.exercised ??= {}
    tally.exercised[c] = (tally.exercised[c] ?? 0) + 1
  }
}

/**
 * Adds a published-contract finding to the running check's answers (outside any check: dropped, false). The same
 * finding (check id and message) is kept once per check: each contract check counts a finding once, however many
 * exchanges show it.
 */
export function noteContract(note: ContractNote): boolean {
  const list = running.get()?.contract
  if (!list) return false
  if (!list.some((x) => x.id === note.id && x.actual === note.actual)) list.push(note)
  return true
}

/** The published-contract findings so far on the running check's answers. */
export function runningContract(): ContractNote[] | undefined {
  return running.get()?.contract
}

/** The invariants evaluated and broken so far by the running check. */
export function runningInvariants(): InvariantTally | undefined {
  return running.get()?.invariants
}

/**
 * Runs `body` as one of the clients the running check plays at once ("writer 1"): the calls it makes are that
 * client's in the run's history (one lane of the timeline). Same check, chain and tally.
 */
export function asClient<T>(name: string, body: () => T): T {
  const store = running.get()
  return store ? running.run({ ...store, client: name }, body) : body()
}

/** The client the running check plays here, if it plays several (asClient). */
export function runningClient(): string | undefined {
  return running.get()?.client
}

/** The dependent chain of the check running here, if any. */
export function runningChain(): string | undefined {
  return running.get()?.chain
}

/**
 * Runs `body` as work other checks wait for (a quote several checks share, their turns on it): its requests go in
 * line with the dependent chains' at the request limiter (helpers/client/http/limiter.ts), not behind them, even when
 * the
 * check that runs it is independent of its siblings. Same check, same chain, same tally: only the priority changes.
 */
export function awaitedByOthers<T>(body: () => T): T {
  const store = running.get()
  return store && store.independent ? running.run({ ...store, independent: false }, body) : body()
}

/** Whether the check running here is independent of its siblings (false outside a check: hooks set up for others). */
export function runningIndependently(): boolean {
  return running.get()?.independent ?? false
}

/** A finding about an exchange of the running check that the check records as a deviation when its body ends. */
export interface ExchangeFinding {
  id: string
  message: string
  /** warn: recorded; fail: the check fails with it (the profile's deviations[<name>]). */
  policy: 'warn' | 'fail'
}

const findings = new ScopedValue<ExchangeFinding[]>('exchange findings')

/**
 * Runs body collecting the findings reported during it (helpers/client/contracts/openapi: published-contract checks).
 */
export function withFindings<T>(list: ExchangeFinding[], body: () => T): T {
  return findings.run(list, body)
}

/** Reports a finding to the running check; false when no check is running (e.g. a clean-up hook). */
export function reportFinding(f: ExchangeFinding): boolean {
  const list = findings.get()
  if (!list) return false
  if (!list.some((x) => x.id === f.id && x.message === f.message)) list.push(f)
  return true
}

const onPurpose = new ScopedValue<string>('invalid on purpose')

/**
 * Runs `body` whose requests are invalid on purpose (a probe of a refusal: a body without a required field, a header
 * left out): their request does not match the published documents, and that is what the check tests, so the
 * contract's request finding is expected, not reported (docs/contracts.md). `what` says what is wrong with them.
 */
export function invalidOnPurpose<T>(what: string, body: () => T): T {
  return onPurpose.run(what, body)
}

/** What is wrong on purpose with the requests sent here (invalidOnPurpose), if anything. */
export function requestInvalidOnPurpose(): string | undefined {
  return onPurpose.get()
}
