import type { SuiteContext } from '../../../helpers/checks/context'
import type { Exchange } from '../../../helpers/client/http/recorder'
import { SalesFlow } from '../../../helpers/checks/sales/lifecycle'
import { SubscriptionTracker } from '../../../helpers/checks/webhooks/tracker'
import { webhookSettings } from '../../../helpers/checks/webhooks/settings'
import { PoliciesApi } from '../../../helpers/checks/policies/api'
import { policiesSettings } from '../../../common/config/policies-settings'
import type { Violation } from '../../../helpers/client/http/observer'

/** What one step did: its name, the exchanges it made (redacted), the invariants it evaluated and broke. */
export interface StepLog {
  step: string
  exchanges: Exchange[]
  evaluated: string[]
  violations: Violation[]
  /** The exercise model's cells its answers exercised (helpers/oracle/exercise-tracker.ts). */
  exercised?: string[]
  /** A parallel step: operations on one resource sent at once (runner/commands/explore/parallel-steps.ts). */
  parallel?: true
}

/**
 * One thing a step does, with its name (a step drawn from the exercise model's cells:
 * runner/commands/explore/cell-steps.ts).
 */
export interface ExploreAction {
  name: string
  act(w: World): Promise<void>
}

/** The abstract state fast-check's commands are generated against (what exists, not what it holds). */
export interface ExploreModel {
  subs: number
  quotes: number
  requests: number
  documents: number
  policies: number
}

/**
 * The system under test of one generated sequence: a fresh suite context (so a fresh model of the services' state, see
 * helpers/oracle/) and the handles the sequence created, by creation order. Commands pick among them by index.
 */
export class World {
  readonly flow: SalesFlow
  readonly subs: SubscriptionTracker
  readonly api: PoliciesApi
  readonly subIds: string[] = []
  readonly quoteIds: string[] = []
  /** The create payload of each quote the sequence made (an MTA starts from its policy's). */
  readonly payloads = new Map<string, Record<string, unknown>>()
  readonly requests: { id: string; quoteId: string }[] = []
  readonly documents: string[] = []
  readonly policies: { id: string; quoteId: string }[] = []
  /** Allocation events not credited yet (credited at clean-up, best effort). */
  readonly allocations = new Set<string>()
  readonly log: StepLog[] = []
  /** Exchanges of the step running now (the recorder's sink appends). */
  current: Exchange[] = []

  constructor(readonly t: SuiteContext) {
    this.flow = new SalesFlow(t, 'explore')
    this.subs = new SubscriptionTracker(t, webhookSettings(t.config), 'explore')
    this.api = new PoliciesApi(t, policiesSettings(t.config))
  }

  async close(): Promise<void> {
    this.current = [] // the clean-up's exchanges belong to no step
    for (const id of this.allocations) await this.api.credit(id).catch(() => undefined)
    await this.subs.cleanup()
    await this.flow.cleanup()
    await this.t.close()
  }
}

/** The element at index k (modulo), or undefined when there is none. */
export function pick<T>(list: readonly T[], k: number): T | undefined {
  return list.length === 0 ? undefined : list[k % list.length]
}
