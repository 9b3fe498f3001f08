import { beforeAll, test, describe, type TestContext } from 'vitest'
import * as allure from 'allure-js-commons'
import { ConformanceFailure, evidence, failureOf, formatViolations, renderFailure, violationRecord } from './failure'
import { selectedChecks } from '../../common/selection'
import { SKIP_REASON_LABEL } from '../../common/report-labels'
import {
  runningContract,
  runningInvariants,
  withFindings,
  withRunningCheck,
  type ContractNote,
  type ExchangeFinding,
} from '../client/http/running-check'
import { blockedMessage, ownerOf, SetupFailure, type BlockedInfo } from './setup'
import { safeText } from '../client/evidence/redact'
import { attachEvidence } from '../client/evidence/evidence'
import { InFlight, withInFlight } from '../client/http/in-flight'
import { BreakerOpen } from '../client/http/breaker'
import { answerKey } from '../client/http/recorder'
import { ANSWER_BUDGET_DEVIATION } from '../client/http/limits'
import { SPEC, type CheckMeta } from '../../common/spec'
import type { CheckTaskMeta, Deviation, FailureRecord } from './task-meta'
import { callerOutside, type SourceLocation } from '../../common/source-location'

export type { CheckMeta } from '../../common/spec'

export type { Deviation } from './task-meta'

export interface CheckContext {
  /** The vitest test context. */
  vitest: TestContext
  /** Marks the check not applicable to this target (skips it with the reason). */
  notApplicable(reason: string): never
  /** Records a named deviation; with policy 'fail' it also fails the check. */
  deviation(d: Deviation): Promise<void>
  /**
   * Records what the check did not probe in this run (a note in the summary, checks.json, verdict.json, the matrix; not
   * a failure).
   */
  note(text: string): void
}

export interface CheckOptions {
  timeout?: number
}

/** Records which check this test is, for the reports (also for a step skipped as blocked). */
function attachMeta(meta: CheckMeta, ctx: TestContext): string {
  const document = SPEC[meta.spec]
  // what the definition recorded (its lifecycle, where it is declared) is kept
  ctx.task.meta.check = { ...ctx.task.meta.check, ...meta, document }
  return document
}

/** Runs a check body with its labels, and turns any failure into the check's message. */
function runCheck(meta: CheckMeta, ctx: TestContext, body: (t: CheckContext) => Promise<void>): Promise<void> {
  const name = ctx.task.fullTestName ?? ctx.task.name
  const independent = ctx.task.concurrent === true
  const chain = independent ? name : (ctx.task.suite?.fullTestName ?? ctx.task.file?.name ?? name)
  return withRunningCheck(name, () => runCheckBody(meta, ctx, body), { name: chain, independent })
}

async function runCheckBody(
  meta: CheckMeta,
  ctx: TestContext,
  body: (t: CheckContext) => Promise<void>,
): Promise<void> {
  const document = attachMeta(meta, ctx)
  await allure.labels(
    { name: 'specDocument', value: document },
    { name: 'specSection', value: meta.section },
    { name: 'checkId', value: meta.id },
    { name: 'epic', value: document },
    { name: 'feature', value: `${document} ${meta.section}` },
    { name: 'story', value: meta.id },
  )
  await allure.description(`**${meta.id}** — ${document} ${meta.section}\n\n${meta.requirement}`)
  const t: CheckContext = {
    vitest: ctx,
    notApplicable(reason: string): never {
      ctx.task.meta.notApplicable = reason
      skipReason(`not applicable: ${reason}`)
      ctx.skip(`not applicable: ${reason}`)
      throw new Error('unreachable')
    },
    async deviation(d: Deviation) {
      ctx.task.meta.deviations = [...(ctx.task.meta.deviations ?? []), d]
      await allure.label('deviation', d.id)
      await attachEvidence(`deviation ${d.id}`, `${d.message}\npolicy: ${d.policy}`, 'text/plain')
      if (d.policy === 'fail') {
        const e = Object.assign(new Error(safeText(`deviation ${d.id}: ${d.message}`)), {
          deviation: { id: d.id, policy: d.policy },
        })
        e.name = 'DeviationFailure'
        throw e
      }
    },
    note(text: string) {
      ctx.task.meta.notes = [...(ctx.task.meta.notes ?? []), safeText(text)]
    },
  }
  let failure: unknown
  const found: ExchangeFinding[] = []
  try {
    await withFindings(found, () => withDeadline(ctx.task.timeout, () => body(t)))
    for (const f of found) await t.deviation(f)
  } catch (e) {
    if ((e as { name?: string })?.name === 'SkipError' || ctx.task.result?.state === 'skip') {
      recordInvariants(ctx)
      throw e
    }
    // an answer over its budget was not parsed (helpers/client/http/send.ts): what the check then could not read is
    // that
    // answer's finding, not the check's own requirement
    // (a setup's failure stays the setup's: the check is blocked, owned by the operation's owner, as for any setup)
    const overBudget =
      (e as { name?: string })?.name === 'DeviationFailure' || e instanceof SetupFailure
        ? undefined
        : found.find((f) => f.policy === 'fail' && f.id.startsWith(`${ANSWER_BUDGET_DEVIATION}:`))
    if (overBudget && !breakerOpenIn(e)) {
      const unread = e
      e = await t.deviation(overBudget).then(
        () => unread,
        (d: unknown) => d,
      )
    }
    if (e instanceof SetupFailure) {
      recordInvariants(ctx)
      await block(ctx, e.blocked, e.res ? evidence(e.res) : [])
    }
    // the target stopped answering earlier in the run (helpers/client/http/breaker.ts): this check's requirement was
    // not tested
    const open = breakerOpenIn(e)
    if (open) {
      recordInvariants(ctx)
      await block(ctx, { reason: open.message })
    }
    failure = e
  }
  // an answer this check received broke an invariant of the model: that is the invariant's failure, reported once on
  // its
  // own id and naming this check (runner/run/results/invariants.ts), not this check's (issue 13: one defect, one
  // failure)
  recordInvariants(ctx)
  if (failure === undefined) return
  // the check's outcome as ONE record in its meta: every report is rendered from it (helpers/checks/task-meta.ts)
  const record = failureRecord(meta, failure)
  ctx.task.meta.failure = record
  const err = new Error(renderFailure(record))
  // a violated requirement is an assertion failure (Allure: failed; checks.json: failed); anything else kept the check
  // from finishing (Allure: broken; checks.json: errored; the verdict INCONCLUSIVE)
  err.name = record.kind === 'failed' ? 'AssertionError' : 'CheckError'
  throw err
}

/**
 * The record of a check's failure: a violated requirement (an assertion helper, a deviation the profile does not
 * accept)
 * is `failed`, anything else `errored`. A status failure's owner defaults to the owner of the operation that answered,
 * for the check's product; an owner that is the check itself is none (runner/run/results/findings.ts).
 */
export function failureRecord(meta: CheckMeta, e: unknown): FailureRecord {
  const record = failureOf(meta, e, violatesRequirement(e) ? 'failed' : 'errored')
  const status = record.expectation?.kind === 'status'
  const owner =
    record.owner ??
    (status && e instanceof ConformanceFailure ? ownerOf(e.detail.res?.exchange?.operationId, meta.product) : undefined)
  const { owner: _, ...rest } = record
  return owner && owner !== meta.id ? { ...rest, owner } : rest
}

/** The breaker's refusal when it is the error or what caused it (a helper may wrap it), else undefined. */
function breakerOpenIn(e: unknown, depth = 0): BreakerOpen | undefined {
  if (e instanceof BreakerOpen) return e
  if (depth > 8 || e === null || typeof e !== 'object') return undefined
  return breakerOpenIn((e as { cause?: unknown }).cause, depth + 1)
}

/** Copies the running check's invariant tally (what was judged on its answers, and broken) into its task meta. */
function recordInvariants(ctx: TestContext): void {
  const contract = runningContract()
  if (contract && contract.length > 0) ctx.task.meta.contract = contract.map((n) => ({ ...n }))
  const tally = runningInvariants()
  if (!tally) return
  const violated = tally.violations.map((v) => {
    const answers = [v.res, v.setBy].flatMap((r) => (r?.exchange ? [answerKey(r.exchange)] : []))
    return {
      id: v.invariant,
      message: formatViolations([v]),
      ...(v.res.exchange?.operationId ? { operation: v.res.exchange.operationId } : {}),
      ...(v.at ? { at: v.at } : {}),
      ...(answers.length > 0 ? { answers } : {}),
      failure: violationRecord(v),
    }
  })
  ctx.task.meta.invariants = {
    evaluated: { ...tally.evaluated },
    violated,
    ...(tally.sent ? { sent: { ...tally.sent } } : {}),
    ...(tally.undecided ? { undecided: tally.undecided.map((u) => ({ id: u.invariant, resource: u.resource })) } : {}),
  }
  if (tally.exercised) ctx.task.meta.exercised = Object.keys(tally.exercised).sort()
}

/**
 * Skips the check as BLOCKED: its setup failed, so its own requirement was not tested. The reason (redacted),
 * the operation, the status seen and the owner go to TaskMeta.blocked; the setup's exchange to the report.
 */
async function block(ctx: TestContext, info: BlockedInfo, lines: string[] = []): Promise<never> {
  const blocked: BlockedInfo = { ...info, reason: safeText(info.reason) }
  ctx.task.meta.blocked = blocked
  const message = blockedMessage(blocked)
  await attachEvidence('blocked', [message, ...lines].join('\n'), 'text/plain')
  skipReason(message)
  ctx.skip(message)
  throw new Error('unreachable')
}

/** The reason of a skip, for Allure's skipped result (common/report-labels.ts). */
function skipReason(reason: string): void {
  void allure.label(SKIP_REASON_LABEL, safeText(reason))
}

/** What is left of vitest's timeout for the check's own message (and the aborting of its requests). */
function deadlineMargin(timeoutMs: number): number {
  return Math.min(2000, Math.round(timeoutMs / 10))
}

/**
 * Runs the body against the check's deadline (vitest's timeout less a margin): past it, every request the check has
 * in flight is aborted and the check fails naming them and how long they have been waiting, instead of vitest's
 * bare "Test timed out". Requests and their retries are given only the time that is left
 * (helpers/client/http/in-flight.ts).
 */
export async function withDeadline(timeoutMs: number | undefined, body: () => Promise<void>): Promise<void> {
  if (!timeoutMs || !Number.isFinite(timeoutMs) || timeoutMs <= 0) return body()
  const ms = timeoutMs - deadlineMargin(timeoutMs)
  const tracker = new InFlight(Date.now() + ms)
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const inFlight = tracker.describe()
      const e = new Error(
        `the check did not finish within ${ms} ms; ${inFlight ? `in flight: ${inFlight}` : 'no request was in flight'}`,
      )
      // settled first, so that the body, ending as its requests are aborted, cannot win the race
      reject(e)
      tracker.abort(e)
    }, ms)
  })
  try {
    await Promise.race([withInFlight(tracker, body), expired])
  } finally {
    clearTimeout(timer)
  }
}

/** The target broke the requirement (an assertion helper, a deviation the profile does not accept). */
function violatesRequirement(e: unknown): boolean {
  return e instanceof ConformanceFailure || (e as { name?: string })?.name === 'DeviationFailure'
}

function title(meta: CheckMeta): string {
  return `${meta.id} ${meta.requirement}`
}

/**
 * The test options of a check: its meta is attached at definition, so the catalogue (--list, selection) is read by
 * collecting the suites without running them. `undefined` when the check is not in the run's selection: it is then
 * not defined at all (common/selection.ts).
 */
function testOptions(
  meta: CheckMeta,
  options: CheckOptions,
  at: SourceLocation | undefined,
  lifecycle?: string,
): { timeout?: number; meta: { check: CheckTaskMeta } } | undefined {
  const selected = selectedChecks()
  if (selected && !selected.has(meta.id)) return undefined
  return {
    ...(options.timeout ? { timeout: options.timeout } : {}),
    meta: { check: { ...meta, document: SPEC[meta.spec], ...(lifecycle ? { lifecycle } : {}), ...(at ? { at } : {}) } },
  }
}

/** This module: a declaration is attributed to the first frame outside it (the suite's `check(` or `step(` call). */
const CHECK_MODULE = 'helpers/checks/check.ts'

/** Where the check being declared is declared: the suite file and line of its `check(...)` or `step(...)` call. */
function declaredAt(): SourceLocation | undefined {
  // the suite's call is the 3rd frame (declaredAt, check or the step function, the suite): a short stack costs less to
  // map back to the source, once per check declared (as vitest's own includeTaskLocation does)
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 6
  try {
    return callerOutside([CHECK_MODULE], new Error().stack ?? '')
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** One check: one behaviour, one stable id, one cited clause. */
export function check(meta: CheckMeta, body: (t: CheckContext) => Promise<void>, options: CheckOptions = {}): void {
  const opts = testOptions(meta, options, declaredAt())
  if (opts) test(title(meta), opts, (ctx) => runCheck(meta, ctx, body))
}

/**
 * One check in a block of its own, named by its id: with `sideBySide()` in the enclosing describe, the checks that
 * each work on their own resources run beside each other, each a dependent chain of its own (its requests wait on
 * each other, so they keep a chain's turn at the request limiter).
 */
export function checkApart(
  meta: CheckMeta,
  body: (t: CheckContext) => Promise<void>,
  options: CheckOptions = {},
): void {
  const opts = testOptions(meta, options, declaredAt())
  if (opts) describe(meta.id, () => test(title(meta), opts, (ctx) => runCheck(meta, ctx, body)))
}

export type StepFn = (meta: CheckMeta, body: (t: CheckContext) => Promise<void>, options?: CheckOptions) => void

/**
 * An ordered scenario: steps run in order and share state through the closure.
 * After a failed step, the later steps are skipped as BLOCKED (owner: the failed step) instead of failing in
 * cascade; after a blocked step, they are blocked by the same root cause (its operation, status and owner).
 */
export function lifecycle(name: string, define: (step: StepFn) => void): void {
  describe.sequential(name, () => {
    // the first step that did not pass (failed or blocked) blocks every later one, with the root cause as owner
    const state: { blockedBy?: BlockedInfo } = {}
    define((meta, body, options = {}) => {
      const opts = testOptions(meta, options, declaredAt(), name)
      if (!opts) return
      test(title(meta), opts, async (ctx) => {
        // blocked is a skip with its reason, not "not applicable": the target may well have the feature
        if (state.blockedBy) {
          attachMeta(meta, ctx)
          await block(ctx, state.blockedBy)
        }
        return runCheck(meta, ctx, async (t) => {
          try {
            await body(t)
          } catch (e) {
            if (e instanceof SetupFailure) {
              // this step was blocked itself: the later ones are blocked by the same root cause
              state.blockedBy = { ...e.blocked, reason: `earlier step ${meta.id} was blocked: ${e.blocked.reason}` }
            } else if (ctx.task.meta.notApplicable === undefined) {
              state.blockedBy = { reason: `earlier step ${meta.id} failed`, owner: meta.id }
            }
            throw e
          }
        })
      })
    })
  })
}

/**
 * The blocks (lifecycles) declared in the enclosing describe do not depend on each other: they run side by side, each
 * keeping its steps in order (scheduling by dependency, docs/reliability.md#speed). vitest has no option for it: a
 * describe.concurrent would make every step concurrent; the blocks are marked concurrent once collected instead.
 */
export function sideBySide(): void {
  // vitest reads a fixture's dependencies from its first parameter, which must be an object pattern
  // biome-ignore lint/correctness/noEmptyPattern: vitest's fixture signature
  beforeAll(({}, suite) => {
    for (const block of suite.tasks) if (block.type === 'suite') block.concurrent = true
  })
}
