import { OPERATIONS, factsOf, isOperationId } from '../../common/operations'
import type { OperationId } from '../../common/operation-ids'
import {
  POLICY_REREADS,
  POLICY_STATES,
  QUOTE_STATES,
  SUBSCRIPTION_REREADS,
  SUBSCRIPTION_STATES,
  type ExerciseDimensions,
} from '../../common/operation-facts'

/**
 * The exercise model (issue 40): what a client does with each operation, as cells a run exercises or not. A cell is one
 * operation x one class of one dimension:
 * - `state`: the state of the resource the operation addresses (quote states, policy states incl. changed by an MTA,
 *   technically changed and terminated; subscription live, updated, deleted);
 * - `caller`: who calls (the owner, a user of the tenant with fewer rights, a user of another tenant, no token, a
 *   malformed token, an expired token);
 * - `multiplicity`: how many entries a list answers (0, 1, several, more than a page; a schedule of 12 installments);
 * - `reread`: a view read again after a write that may change it (after an MTA, a technical change, a termination;
 *   after a subscription's update or deletion);
 * - `identity`: login at every tenant path with every user's credentials; refresh, the refreshed token in use, the old
 *   token after a refresh.
 *
 * Data-driven and keyed by the operation ids of common/operations.json (plus the identity service's two operations,
 * which the catalogue does not list): the dimensions of each operation are the operation catalogue's facts
 * (common/operation-facts.ts `exercise`, a `Record<OperationId, …>`: a new operation does not compile without its
 * exercise decision), from which `EXERCISE_FACTS` is derived. Cells are measured from the run's own traffic
 * (helpers/oracle/exercise-tracker.ts), never declared by checks.
 */

export type Dimension = 'state' | 'caller' | 'multiplicity' | 'reread' | 'identity' | 'fanout'

export { QUOTE_STATES, POLICY_STATES, SUBSCRIPTION_STATES, POLICY_REREADS, SUBSCRIPTION_REREADS }
export const CALLERS = ['owner', 'restricted', 'other-tenant', 'no-token', 'malformed-token', 'expired-token'] as const
export type CallerClass = (typeof CALLERS)[number]
/**
 * Entries of a list answer: none, one, a few, more than a page (the profile's extensions.exercise.listPage.size;
 * unpaged: 50).
 */
export const LIST_SIZES = ['0', '1', 'several', 'over-page'] as const
/** Entries of a schedule: one installment (annual), twelve (monthly). */
export const SCHEDULE_SIZES = ['1', '12'] as const

/**
 * The identity service's operations (not in common/operations.json: the specs name login and refresh only in prose).
 */
export const IDENTITY_OPERATIONS = ['identity.login', 'identity.refresh', 'identity.refreshed-token'] as const

/**
 * An event the webhook service notifies (webhook-subscriptions.md §6; made to happen by the profile's
 * extensions.webhooks.delivery.trigger, not an operation of the catalogue), emitted while the caller holds several
 * subscriptions for that event type, several at one url, or while one of its subscriptions is being updated or
 * deleted (the write and the emission in flight together).
 */
export const NOTIFY_OPERATION = 'webhooks.notify'
export const FANOUT_CLASSES = [
  'several-per-event',
  'several-per-url',
  'updated-while-emitting',
  'deleted-while-emitting',
] as const

export type Resource = ExerciseDimensions['stateOf']

/** What the model needs to know of one operation to say which cells it has: the catalogue's exercise dimensions. */
export interface ExerciseFacts {
  resource: Resource
  /** It changes what the service holds (a read-only run never sends it): the catalogue's access. */
  write: boolean
  /** It answers a list the caller's data fills: the multiplicity classes apply. */
  list?: 'subscriptions' | 'schedule'
  /** It is a view some write may change: re-read after each such write. */
  reread?: readonly string[]
  /** State classes this operation is exercised in (default: every state of its resource). */
  states?: readonly string[]
  /**
   * It addresses a resource of one tenant (or the caller's own list): another tenant's caller is a class of its own.
   */
  scoped: boolean
  /**
   * The caller's rights shape what it may send or read (sales §5: schemas are filtered by rights): the restricted user
   * is a class.
   */
  rights: boolean
}

function exerciseFactsOf(id: OperationId): ExerciseFacts {
  const f = factsOf(id)
  const x = f.exercise
  return {
    resource: x.stateOf,
    write: f.access === 'write',
    scoped: x.scoped,
    rights: x.rights,
    ...('list' in x && x.list ? { list: x.list } : {}),
    ...(x.reread ? { reread: x.reread } : {}),
    ...('states' in x && x.states ? { states: x.states } : {}),
  }
}

/**
 * The exercise facts of each operation, derived from the operation catalogue (common/operation-facts.ts `exercise`).
 */
export const EXERCISE_FACTS: Readonly<Record<OperationId, ExerciseFacts>> = Object.fromEntries(
  OPERATIONS.map((op) => [op.id, exerciseFactsOf(op.id)]),
) as Record<OperationId, ExerciseFacts>

/** The exercise facts of an operation id (a string from a call: undefined when it is not a catalogue operation). */
export function exerciseFacts(id: string): ExerciseFacts | undefined {
  return isOperationId(id) ? EXERCISE_FACTS[id] : undefined
}

/** What the profile says that makes a cell applicable or not, and where the run stands (read-only, --thorough). */
export interface ExerciseProfile {
  /** Roles the profile names a usable user for (users.<role>), primary included. */
  users: readonly string[]
  /** The tenant of each such role. */
  tenants: Readonly<Record<string, string>>
  /** The profile names an auth.refreshPath (the identity service's refresh). */
  refresh: boolean
  /** What the target does with the token a refresh replaced (profile auth.oldTokenAfterRefresh). */
  oldTokenAfterRefresh: 'accepted' | 'refused' | 'unspecified'
  /** The profile names a way to make the target emit an event (extensions.webhooks.delivery.trigger). */
  emit?: boolean
  /**
   * What the target does with a payment allocated to an invoice of a terminated policy
   * (extensions.exercise.terminatedPolicyPayments).
   */
  terminatedPolicyPayments?: 'accepted' | 'refused' | 'unspecified'
  /** The page size of the subscription list (profile extensions.exercise.listPage.size; unpaged: 50). */
  listPageSize: number
}

export interface Cell {
  /** `<operation>|<dimension>=<class>`. */
  id: string
  operation: string
  dimension: Dimension
  cls: string
  /** Only --thorough exercises it (the default run leaves it, saying so). */
  thorough?: boolean
  /** Why it does not apply to this profile (absent: it applies). */
  notApplicable?: string
  /** A write: a read-only run does not exercise it. */
  write: boolean
}

export const cellId = (operation: string, dimension: Dimension, cls: string): string =>
  `${operation}|${dimension}=${cls}`

/** Cells only --thorough exercises: they cost more than they are likely to find in a quick run. */
const THOROUGH_ONLY = new Set<string>([
  // a termination of a policy an MTA changed: one more MTA lifecycle (create, calculate, bind, issue, poll) on the
  // run's
  // longest chain (suites/exercise/policy-states.test.ts); the volume cells cost about a second and run by default
  cellId('sales.termination.terminate', 'state', 'changed'),
])

/** State cells a profile can leave unspecified: why they do not apply then. */
const NOT_APPLICABLE_STATE: Readonly<Record<string, (p: ExerciseProfile) => string | undefined>> = {
  [cellId('sales.payments.allocate', 'state', 'terminated')]: (p) =>
    p.terminatedPolicyPayments === 'unspecified'
      ? 'the profile leaves extensions.exercise.terminatedPolicyPayments unspecified'
      : undefined,
}

const CALLER_NEEDS: Partial<Record<CallerClass, string>> = { restricted: 'restricted', 'other-tenant': 'otherTenant' }

/** Every cell of the model, with its applicability to a profile. */
export function exerciseCells(profile: ExerciseProfile): Cell[] {
  const out: Cell[] = []
  const add = (operation: string, dimension: Dimension, cls: string, write: boolean, notApplicable?: string) => {
    const id = cellId(operation, dimension, cls)
    out.push({
      id,
      operation,
      dimension,
      cls,
      write,
      ...(THOROUGH_ONLY.has(id) ? { thorough: true } : {}),
      ...(notApplicable ? { notApplicable } : {}),
    })
  }
  for (const op of OPERATIONS) {
    const f = EXERCISE_FACTS[op.id]
    const states =
      f.states ??
      (f.resource === 'quote'
        ? QUOTE_STATES
        : f.resource === 'policy'
          ? POLICY_STATES
          : f.resource === 'subscription'
            ? SUBSCRIPTION_STATES
            : [])
    for (const s of states) add(op.id, 'state', s, f.write, NOT_APPLICABLE_STATE[cellId(op.id, 'state', s)]?.(profile))
    for (const c of CALLERS) {
      // another tenant's caller matters where the operation addresses a tenant's resource; fewer rights where rights
      // shape it
      if ((c === 'other-tenant' && !f.scoped) || (c === 'restricted' && !f.rights)) continue
      const role = CALLER_NEEDS[c]
      add(
        op.id,
        'caller',
        c,
        f.write,
        role && !profile.users.includes(role) ? `the profile names no users.${role}` : undefined,
      )
    }
    if (f.list)
      for (const n of f.list === 'subscriptions' ? LIST_SIZES : SCHEDULE_SIZES) add(op.id, 'multiplicity', n, f.write)
    for (const r of f.reread ?? []) add(op.id, 'reread', r, true)
  }
  // identity: login at every tenant path with every user's credentials
  const tenants = [...new Set(Object.values(profile.tenants))].sort()
  for (const role of [...profile.users].sort()) {
    for (const t of tenants)
      add('identity.login', 'identity', `${role}@${t === profile.tenants[role] ? 'own' : t}`, false)
  }
  // events emitted over several subscriptions, some being written meanwhile (webhook-subscriptions.md §6)
  const noEmit = profile.emit === false ? 'the profile names no extensions.webhooks.delivery.trigger' : undefined
  for (const cls of FANOUT_CLASSES) add(NOTIFY_OPERATION, 'fanout', cls, true, noEmit)
  const noRefresh = profile.refresh ? undefined : 'the profile names no auth.refreshPath'
  add('identity.refresh', 'identity', 'refresh', false, noRefresh)
  add('identity.refreshed-token', 'identity', 'refreshed-token-used', false, noRefresh)
  add(
    'identity.refreshed-token',
    'identity',
    'old-token-after-refresh',
    false,
    noRefresh ??
      (profile.oldTokenAfterRefresh === 'unspecified'
        ? 'the profile leaves extensions.exercise.oldTokenAfterRefresh unspecified'
        : undefined),
  )
  return out
}

/** Why a cell the run did not exercise was not: the reasons the reports print. */
export type NotExercisedWhy =
  | 'not applicable to the profile'
  | 'read-only run'
  | 'left to --thorough'
  | 'outside the selection'
  | 'not reached'

/** The coverage of one run: the applicable cells exercised, and every other cell with why not. */
export interface ExerciseCoverage {
  applicable: number
  exercised: number
  /** exercised / applicable, in percent (one decimal). */
  percent: number
  notExercised: { cell: string; why: NotExercisedWhy; detail?: string }[]
  notApplicable: { cell: string; why: string }[]
  byDimension: Record<Dimension, { applicable: number; exercised: number }>
}

export interface CoverageRun {
  thorough: boolean
  /** The run sends no writes (smoke: the read-only suites). */
  readOnly: boolean
  /** The run holds part of the catalogue (a selection, a shard, a filter). */
  partial: boolean
}

/** The coverage of a run from the cells its traffic exercised. */
export function exerciseCoverage(
  cells: readonly Cell[],
  exercised: ReadonlySet<string>,
  run: CoverageRun,
): ExerciseCoverage {
  const byDimension = {} as ExerciseCoverage['byDimension']
  const notExercised: ExerciseCoverage['notExercised'] = []
  const notApplicable: ExerciseCoverage['notApplicable'] = []
  let applicable = 0
  let done = 0
  for (const c of cells) {
    if (c.notApplicable) {
      notApplicable.push({ cell: c.id, why: c.notApplicable })
      continue
    }
    const d = (byDimension[c.dimension] ??= { applicable: 0, exercised: 0 })
    applicable += 1
    d.applicable += 1
    if (exercised.has(c.id)) {
      done += 1
      d.exercised += 1
      continue
    }
    // a read-only run sends no write; a partial run (a selection, a shard) is judged on its own part only
    const why: NotExercisedWhy =
      run.readOnly && c.write
        ? 'read-only run'
        : run.partial
          ? 'outside the selection'
          : c.thorough && !run.thorough
            ? 'left to --thorough'
            : 'not reached'
    notExercised.push({ cell: c.id, why })
  }
  return {
    applicable,
    exercised: done,
    percent: applicable === 0 ? 100 : Math.floor((1000 * done) / applicable) / 10,
    notExercised,
    notApplicable,
    byDimension,
  }
}

/** The console lines of a run's coverage: the figure, then the cells not exercised by reason (a few named). */
/** `rest`: where the cells the lines leave out are listed (null: nowhere else). */
export function exerciseLines(cov: ExerciseCoverage, rest: string | null = 'checks.json exercise'): string[] {
  const dims = Object.entries(cov.byDimension)
    .map(([d, v]) => `${d} ${v.exercised}/${v.applicable}`)
    .join(', ')
  const out = [
    `exercise ${cov.exercised} of ${cov.applicable} applicable cells (${cov.percent} ` +
      `%): ${dims}; ${cov.notApplicable.length} not applicable to the profile (docs/exercise.md)`,
  ]
  const byWhy = new Map<string, string[]>()
  for (const n of cov.notExercised) byWhy.set(n.why, [...(byWhy.get(n.why) ?? []), n.cell])
  for (const [why, list] of byWhy)
    out.push(
      `  not exercised (${why}): ${list.length}: ${list.slice(0, 6).join(', ')}${
        list.length > 6 ? `, and ${list.length - 6} more${rest ? ` (${rest})` : ''}` : ''
      }`,
    )
  return out
}
