import fc from 'fast-check'
import { suggestedCommand } from '../../../common/suggested-command'
import { createSuiteContext } from '../../../helpers/checks/context'
import type { Exchange } from '../../../helpers/client/http/recorder'
import type { TargetConfig } from '../../../common/config/types'
import { formatViolations } from '../../../helpers/checks/failure'
import { INVARIANTS } from '../../../helpers/oracle/invariants'
import { EXIT, exitCodeOf, type ExitCode, type Verdict } from '../../run/verdict'
import { InvariantBroken, stepArbitraries, type StepPacing } from './steps'
import { World, type ExploreModel, type StepLog } from './world'
import { discardAllureOutsideTests } from './quiet-allure'
import { cellArbitrary } from './cell-steps'
import {
  exerciseCells,
  exerciseCoverage,
  exerciseLines,
  type ExerciseCoverage,
} from '../../../helpers/oracle/exercise-model'
import { exerciseProfile } from '../../../helpers/oracle/exercise-tracker'

export interface ExploreOptions {
  seed: number
  /** Steps to generate in all (split into sequences of at most maxSequence). */
  steps: number
  /** Longest generated sequence (fast-check maxCommands). */
  maxSequence: number
  /** Wall-time bound: no new sequence starts after it (fast-check interruptAfterTimeLimit). */
  timeLimitMs: number
  /** At most this many steps per second (each step's polls follow the profile's polling rate). */
  stepsPerSecond: number
}

export interface ExploreResult {
  ok: boolean
  seed: number
  /** Steps run (generated sequences and the shrinking's reruns). */
  stepsRun: number
  sequences: number
  /** Invariant id -> answers it judged. */
  evaluated: Record<string, number>
  /** Sequences with a 2xx answer after their first step (a flow that got past its first step). */
  sequencesPastFirstStep: number
  /**
   * Parallel steps run (operations on one resource sent at once: runner/commands/explore/parallel-steps.ts),
   * shrinking's reruns included.
   */
  parallelSteps?: number
  seconds: number
  interrupted: boolean
  /** Steps run when the first sequence broke an invariant (before shrinking), when one did. */
  stepsToFailure?: number
  /** Invariants the minimal failing sequence broke (its last step's). */
  broken?: string[]
  /**
   * The minimal failing sequence, replayed once more with its exchanges (redacted): on the fresh target `replayOn`
   * gave when given (`alone`: no state of the exploration's other sequences), else on the explored one.
   * `reproduced`: the replay broke an invariant again; `replayBroken`: which.
   */
  replay?: { path: string; steps: StepLog[]; alone: boolean; reproduced: boolean; replayBroken: string[] }
  /** A failure that is not an invariant (a tool error). */
  error?: string
  /** The exercise model's cells the exploration's answers reached, as a run reports them (docs/exercise.md). */
  exercise?: ExerciseCoverage
}

/**
 * A fresh suite context (and so a fresh model of the services' state) per generated sequence; its exchanges logged per
 * step.
 */
function newWorld(config: TargetConfig): World {
  const holder: { world?: World } = {}
  const t = createSuiteContext(config, {
    allure: false,
    trafficFile: false,
    sinks: [(x: Exchange) => void holder.world?.current.push(x)],
  })
  holder.world = new World(t)
  return holder.world
}

/** A fresh target for the replay (npm run explore:defects: a new embedded reference with the same defect). */
export type FreshTarget = () => Promise<{ config: TargetConfig; close: () => Promise<void> }>

/**
 * Random operation sequences generated from the model (fast-check model-based testing: fc.commands, asyncModelRun),
 * the model's invariants judged on every answer of every step; a failing sequence is shrunk by fast-check to a minimal
 * one and replayed once more to print each request and answer (docs/model.md).
 */
export async function explore(config: TargetConfig, o: ExploreOptions, replayOn?: FreshTarget): Promise<ExploreResult> {
  discardAllureOutsideTests()
  const started = Date.now()
  const pacing: StepPacing = { minIntervalMs: 1000 / o.stepsPerSecond, last: { at: 0 } }
  const evaluated: Record<string, number> = {}
  const counters = { steps: 0, sequences: 0, pastFirst: 0, parallel: 0 }
  const count = (w: World) => {
    counters.steps += w.log.length
    counters.parallel += w.log.filter((s) => s.parallel).length
    counters.sequences += 1
    if (
      w.log.slice(1).some((s) => s.exchanges.some((x) => x.status !== undefined && x.status >= 200 && x.status < 300))
    )
      counters.pastFirst += 1
    for (const s of w.log) for (const id of s.evaluated) evaluated[id] = (evaluated[id] ?? 0) + 1
    for (const s of w.log) for (const c of s.exercised ?? []) exercised.add(c)
  }
  const exercised = new Set<string>()
  const coverage = () => ({
    exercise: exerciseCoverage(exerciseCells(exerciseProfile(config)), exercised, {
      thorough: true,
      readOnly: false,
      partial: false,
    }),
  })
  const state: { failed: boolean; stepsToFailure?: number } = { failed: false }
  const runSequence = async (
    cmds: Iterable<fc.AsyncCommand<ExploreModel, World>>,
    keep?: (w: World) => void,
    target: TargetConfig = config,
  ) => {
    const world = newWorld(target)
    try {
      await fc.asyncModelRun(
        () => ({ model: { subs: 0, quotes: 0, requests: 0, documents: 0, policies: 0 }, real: world }),
        cmds,
      )
    } catch (e) {
      if (e instanceof InvariantBroken && !state.failed) {
        state.failed = true
        state.stepsToFailure = counters.steps + world.log.length
      }
      throw e
    } finally {
      count(world)
      keep?.(world)
      await world.close()
    }
  }
  // sequences are generated until the step budget is spent; once one failed, fast-check's shrinking runs are never cut
  const property = fc.asyncProperty(
    fc.commands(stepArbitraries(pacing, cellArbitrary(config)), { maxCommands: o.maxSequence, size: 'max' }),
    async (cmds) => {
      if (!state.failed && counters.steps >= o.steps) return
      await runSequence(cmds)
    },
  )
  const numRuns = o.steps
  const details = await fc.check(property, {
    seed: o.seed,
    numRuns,
    interruptAfterTimeLimit: o.timeLimitMs,
    markInterruptAsFailure: false,
    endOnFailure: false,
  })
  const base = {
    seed: o.seed,
    sequences: counters.sequences,
    evaluated,
    sequencesPastFirstStep: counters.pastFirst,
    parallelSteps: counters.parallel,
    interrupted: details.interrupted,
    ...coverage(),
  }
  if (!details.failed) return { ok: true, ...base, stepsRun: counters.steps, seconds: (Date.now() - started) / 1000 }
  const error = details.errorInstance
  if (!(error instanceof InvariantBroken)) {
    return {
      ok: false,
      ...base,
      stepsRun: counters.steps,
      seconds: (Date.now() - started) / 1000,
      error: String((error as Error | undefined)?.message ?? 'unknown'),
    }
  }
  // replay the minimal sequence once more, keeping its log: alone on a fresh target when one is given
  const holder: { steps?: StepLog[] } = {}
  const [found] = details.counterexample!
  // a fresh copy: each parallel step's scheduler then releases its calls in the order it drew
  // (runner/commands/explore/parallel-steps.ts)
  const cmds = fc.hasCloneMethod(found) ? found[fc.cloneMethod]() : found
  const fresh = replayOn ? await replayOn() : undefined
  let replayBroken: string[] = []
  try {
    await runSequence(cmds, (w) => (holder.steps = w.log), fresh?.config).catch((e: unknown) => {
      if (e instanceof InvariantBroken) replayBroken = e.ids
    })
  } finally {
    await fresh?.close()
  }
  const stepsToFailure = state.stepsToFailure !== undefined ? { stepsToFailure: state.stepsToFailure } : {}
  const replay = {
    path: details.counterexamplePath ?? '',
    steps: holder.steps ?? [],
    alone: fresh !== undefined,
    reproduced: replayBroken.length > 0,
    replayBroken,
  }
  return {
    ok: false,
    ...base,
    ...stepsToFailure,
    stepsRun: counters.steps,
    seconds: (Date.now() - started) / 1000,
    broken: error.ids,
    replay,
  }
}

/**
 * The invariant families (WH-INV, SL-INV, PL-INV): each must judge at least one answer for an exploration to conform.
 */
export const INVARIANT_FAMILIES: string[] = [...new Set(INVARIANTS.map((i) => i.id.replace(/-\d+$/, '')))]

/**
 * The verdict and exit code of an exploration, by the rules of a conformance run (runner/run/verdict.ts): a broken
 * invariant is the target's fault (DOES NOT CONFORM, 1); a tool error, an invariant family that judged nothing, or
 * flows that never got past their first step (no 2xx answer after it: a login answering no usable token, lists whose
 * bodies never parse) is nobody's fault yet (INCONCLUSIVE, 3): a verdict never claims more than was checked.
 */
export function exploreVerdict(r: ExploreResult): { verdict: Verdict; exit: ExitCode; reason?: string } {
  if (!r.ok && !r.error) return { verdict: 'DOES NOT CONFORM', exit: EXIT.doesNotConform }
  if (r.error) return { verdict: 'INCONCLUSIVE', exit: EXIT.inconclusive, reason: r.error }
  const reasons: string[] = []
  if (r.sequences > 0 && r.sequencesPastFirstStep === 0)
    reasons.push(`no sequence got past its first step (no 2xx answer after it in ${r.sequences} sequence(s))`)
  const silent = INVARIANT_FAMILIES.filter(
    (f) => !Object.entries(r.evaluated).some(([id, n]) => id.startsWith(`${f}-`) && n > 0),
  )
  if (silent.length > 0) reasons.push(`no invariant of ${silent.join(', ')} judged any answer`)
  if (reasons.length > 0)
    return { verdict: 'INCONCLUSIVE', exit: exitCodeOf('INCONCLUSIVE'), reason: reasons.join('; ') }
  return { verdict: 'CONFORMS', exit: EXIT.conforms }
}

/** The report printed at the end: seed, steps, invariants and seconds, and the replay of a failing sequence. */
export function formatExplore(r: ExploreResult, o: ExploreOptions): string {
  const judged = Object.keys(r.evaluated).length
  const answers = Object.values(r.evaluated).reduce((a, b) => a + b, 0)
  const lines = [
    `explore: seed ${r.seed}, ${r.stepsRun} steps (${r.parallelSteps ?? 0} parallel) in ${r.sequences} ` +
      `sequences, ${judged}/${INVARIANTS.length} invariants judged on ${answers} step ` +
      `answers, ${r.seconds.toFixed(1)} s${r.interrupted ? ' (time limit reached)' : ''}`,
    // the cells the exploration reached; an exploration is random, so what it did not reach is "not reached", never a
    // verdict
    ...(r.exercise ? exerciseLines(r.exercise, null) : []),
  ]
  if (r.ok) {
    const v = exploreVerdict(r)
    return [
      ...lines,
      v.verdict === 'CONFORMS'
        ? 'verdict  CONFORMS (no invariant broken)'
        : `verdict  INCONCLUSIVE (no invariant broken, but ${v.reason})`,
    ].join('\n')
  }
  if (r.error) return [...lines, `error: ${r.error}`, 'verdict  INCONCLUSIVE'].join('\n')
  const steps = r.replay?.steps ?? []
  if (r.stepsToFailure !== undefined)
    lines.push(`first broken after ${r.stepsToFailure} steps: ${(r.broken ?? []).join(', ')}`)
  const again = r.replay
    ? `${
        r.replay.reproduced ? `broke ${r.replay.replayBroken.join(', ')} again` : 'did NOT break an invariant again'
      } when replayed${r.replay.alone ? ' alone on a fresh target' : ''}; `
    : ''
  lines.push(
    `replay: ${steps.length} step(s), ${again}run it again with: ${suggestedCommand(
      `explore --seed ${o.seed} ` + `--steps ${o.steps} --max-sequence ${o.maxSequence}`,
      `npm run explore -- --seed ${o.seed} ` + `--steps ${o.steps} --max-sequence ${o.maxSequence}`,
    )}  (fast-check path ${r.replay?.path})`,
  )
  steps.forEach((s, i) => {
    lines.push(`${String(i + 1).padStart(3)}. ${s.step}`)
    for (const x of s.exchanges) {
      lines.push(`       ${x.method} ${x.url}${x.request.body ? ` ${x.request.body.slice(0, 300)}` : ''}`)
      lines.push(`       -> ${x.status ?? x.error ?? 'no answer'} ${(x.response?.body ?? '').slice(0, 300)}`)
    }
    if (s.violations.length > 0)
      lines.push(
        ...formatViolations(s.violations)
          .split('\n')
          .map((l) => `       ${l}`),
      )
  })
  lines.push('verdict  DOES NOT CONFORM')
  return lines.join('\n')
}
