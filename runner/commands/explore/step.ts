import type fc from 'fast-check'
import { runningInvariants, withRunningCheck } from '../../../helpers/client/http/running-check'
import type { ExploreModel, World } from './world'

/** A step's invariants were broken: fast-check shrinks the sequence that led here. */
export class InvariantBroken extends Error {
  constructor(
    readonly step: string,
    readonly ids: string[],
  ) {
    super(`${step}: broke ${ids.join(', ')}`)
    this.name = 'InvariantBroken'
  }
}

/** Options every step shares: the pacing (at most so many steps per second). */
export interface StepPacing {
  minIntervalMs: number
  last: { at: number }
}

/**
 * One generated operation on the target. run() sends it through the suite context (the model judges every answer),
 * logs it, and throws InvariantBroken when an answer broke an invariant. A step whose own flow fails (a lock never
 * released, a refused create) is logged and ends without judging more: the invariants are the only oracle here.
 */
export abstract class Step implements fc.AsyncCommand<ExploreModel, World> {
  /** Sends operations on one resource at once (runner/commands/explore/parallel-steps.ts). */
  readonly parallel: boolean = false
  constructor(protected readonly pacing: StepPacing) {}
  abstract toString(): string
  abstract act(w: World): Promise<void>
  check(_m: Readonly<ExploreModel>): boolean {
    return true
  }
  update(_m: ExploreModel, _w: World): void {}

  async run(m: ExploreModel, w: World): Promise<void> {
    const wait = this.pacing.last.at + this.pacing.minIntervalMs - Date.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    this.pacing.last.at = Date.now()
    w.current = []
    const name = this.toString()
    const tally = await withRunningCheck(`explore > ${name}`, async () => {
      let error: string | undefined
      try {
        await this.act(w)
      } catch (e) {
        error = (e as Error).message
      }
      return { ...runningInvariants()!, error }
    })
    // named again once run: a parallel step's name says the order its calls were sent in
    // (runner/commands/explore/parallel-steps.ts)
    w.log.push({
      step: this.toString() + (tally.error ? ` (flow stopped: ${w.t.redactor.text(tally.error).slice(0, 200)})` : ''),
      exchanges: w.current,
      evaluated: Object.keys(tally.evaluated),
      violations: tally.violations,
      exercised: Object.keys(tally.exercised ?? {}),
      ...(this.parallel ? { parallel: true as const } : {}),
    })
    this.update(m, w)
    if (tally.violations.length > 0)
      throw new InvariantBroken(name, [...new Set(tally.violations.map((v) => v.invariant))])
  }
}
