import type { CheckMeta } from '../../common/spec'
import type { TargetConfig } from '../../common/config/types'
import type { FailureRecord, ViolationRecord } from './failure'
import type { BlockedInfo } from './setup'
import type { ContractNote } from '../client/http/running-check'
import type { SourceLocation } from '../../common/source-location'

/**
 * What vitest carries for the check library: the one declaration of every field the checks write into a task's meta
 * and the reporters (runner/run/results/) read back, and of what the global setup provides to the workers.
 * test/layout/task-meta.test.ts keeps this the only `declare module 'vitest'` of the project.
 */

/** A check's outcome when it did not pass, as data (TaskMeta.failure): declared beside the assertions that make it. */
export type { Expectation, FailureRecord, Reproduction, ViolationRecord } from './failure'

/** What a deviation is: a documented difference the profile may accept (warn) or not (fail). */
export interface Deviation {
  id: string
  message: string
  policy: 'warn' | 'fail'
}

/** A check as its definition describes it, with the document it cites and where it is declared. */
export type CheckTaskMeta = CheckMeta & {
  document: string
  /** The full name of the lifecycle (ordered steps) it is a step of. */
  lifecycle?: string
  /**
   * The `check(...)` or `step(...)` call that declares it (suites/..., line): printed by `list`, kept in checks.json.
   */
  at?: SourceLocation
}

/** The model's invariants on the answers a check received: how often each was evaluated, and those it found broken. */
export interface InvariantsTaskMeta {
  evaluated: Record<string, number>
  /**
   * `at`: the rule of the model that judged the answer (helpers/oracle/..., line). `answers`: the answer that broke it
   * and the earlier one its expectation came from (helpers/client/http/recorder.ts answerKey).
   */
  violated: {
    id: string
    message: string
    operation?: string
    at?: SourceLocation
    answers?: string[]
    failure?: ViolationRecord
  }[]
  /** The real-world data classes (helpers/oracle/real-world.ts) the check's requests carried, by class. */
  sent?: Record<string, number>
  /**
   * Invariants the model could not decide on the check's answers (the linearizability checker's budget spent):
   * INCONCLUSIVE.
   */
  undecided?: { id: string; resource: string }[]
}

declare module 'vitest' {
  interface ProvidedContext {
    /** The target of a single-target run. */
    target: TargetConfig
    /** The targets of a multi-target run (TARGET_PROFILES), by key. */
    targets: Record<string, TargetConfig>
  }

  interface TaskMeta {
    /** Set at definition (so a collection without running knows the catalogue), and again when the check runs. */
    check?: CheckTaskMeta
    deviations?: Deviation[]
    notApplicable?: string
    /**
     * What the check did not probe in this run and how to have it probed (e.g. expiry beyond the leeway, --thorough);
     * not a failure.
     */
    notes?: string[]
    /**
     * The check could not reach its assertion: its setup failed. Not a failure of its own requirement; the
     * check that owns the failing operation's requirement is named when known (issue 13, "root cause").
     */
    blocked?: BlockedInfo
    /**
     * The model's invariants on the answers this check received (helpers/oracle/): how often each was evaluated, and
     * the ids it found broken. Reporters list each invariant as a check of its own (runner/run/results/invariants.ts).
     */
    invariants?: InvariantsTaskMeta
    /**
     * What the check's failure was, as data (kind, expectation, expected, actual, operation, answer, owner, evidence):
     * every report is rendered from it, and the reporters tell one finding from several by it
     * (runner/run/results/findings.ts).
     */
    failure?: FailureRecord
    /**
     * The exercise model's cells the check's answered calls exercised (helpers/oracle/exercise-tracker.ts): the run's
     * coverage.
     */
    exercised?: string[]
    /**
     * Published-contract findings on the answers this check received (helpers/client/contracts/openapi-sink.ts): never
     * this
     * check's failure; reporters list each `CT-<operation>-<kind>` as a check of its own
     * (runner/run/results/contract-checks.ts).
     */
    contract?: ContractNote[]
    /**
     * The target (TARGET_PROFILES key) a check of a multi-target run belongs to (helpers/checks/targets/for-target.ts).
     */
    target?: string
    /**
     * The suite file (suites/...) a check belongs to, when the run's suites share one entry file (a lane;
     * helpers/checks/targets/lane.ts).
     */
    suiteFile?: string
  }
}
