import type { PerturbationKind } from '../../../reference/variations/field-paths'

/**
 * One field of the map: an answer's (operation, status, JSON path), array items as `*`; a notification's status is
 * `sent`.
 */
export interface FieldKey {
  operation: string
  status: number | 'sent'
  path: string
}

/** What an operation's answer is: a write's (POST, PUT, PATCH, DELETE), a read's, or a webhook notification. */
export type FieldClass = 'write' | 'read' | 'notification'

/** A field of the clean run's map, with the suite files that exercise its operation. */
export interface FieldEntry extends FieldKey {
  /** `<operation> <status> <path>`: the sort key and the entry's name in the reports. */
  key: string
  /** The perturbation its value got in the clean run (the first non-null value seen; drop when only null or empty). */
  kind: PerturbationKind
  class: FieldClass
  /** How many values the clean run answered at this path (array items each). */
  seen: number
  /** Suite files that exercise the operation with this status (the whole suite when none is known). */
  files: string[]
}

/**
 * caught: a check failed that passes against the batch's faithful control; stopped: the run refused to start with the
 * suite's own message (counted as caught); inconclusive: no new failure, but new errored or blocked checks (the verdict
 * was not CONFORMS for a reason that names no field); missed: the run was as green as the control; not-exercised: the
 * perturbed run never answered that field (the runs took another path), not scored; error: the run broke (no report).
 */
export type FieldOutcome = 'caught' | 'stopped' | 'inconclusive' | 'missed' | 'not-exercised' | 'error'

export interface FieldResult extends FieldEntry {
  free: boolean
  /** Why it is free (the oracle's table or the --free file says). */
  freeReason?: string
  outcome: FieldOutcome
  /** Values perturbed in its run. */
  applied: number
  /** The first perturbed exchange: the request (or the receiver), the value before and after (secrets redacted). */
  example?: { exchange: string; before: string; after: string }
  /** Checks that failed against it and not against the control (their ids, and the first's message start). */
  newFailures: { id: string; error?: string }[]
  /** New errored or blocked checks (inconclusive). */
  newOther?: string[]
  stopMessage?: string
  wallMs: number
  /** Which pass judged it: quick (one of its files alone: quickFile) or full (all its files). */
  pass?: 'quick' | 'full'
  /** How many suite files its judging run ran. */
  ranFiles?: number
}

/** Sensitivity over a set of fields. */
export interface Sensitivity {
  /** Fields in the set (free ones included). */
  fields: number
  free: number
  /** Non-free fields whose perturbation was applied (the denominator). */
  scored: number
  caught: number
  missed: number
  inconclusive: number
  error: number
  /** Non-free fields never answered in their perturbed run (not scored). */
  notExercised: number
  /** Free fields whose perturbation failed a check: false alarms. */
  freeCaught: number
  /** caught / scored (1 when nothing is scored). */
  ratio: number
}

export interface FieldSensitivityReport {
  startedAt: string
  wallMs: number
  /** The clean run that recorded the map (and is the gate: it must be green). */
  record: { wallMs: number; checksRun: number; failed: string[]; entries: number; operations: number }
  seed: number
  /** all: the whole map (the nightly); sample: `size` of the `of` non-free fields, stratified by operation, seeded. */
  selection: { mode: 'all' } | { mode: 'sample'; size: number; of: number; seed: number }
  batch: number
  parallel: number
  /** The bar of the run (--bar): the sensitivity at least this, and every field of a write's answer caught. */
  bar?: number
  /** The quick pass ran first (each field on one of its files, quickFile; the rest again on all their files). */
  quick?: boolean
  /** Where the free fields came from. */
  freeSource: string
  overall: Sensitivity
  writes: Sensitivity
  reads: Sensitivity
  notifications: Sensitivity
  perOperation: ({ operation: string } & Sensitivity)[]
  /** Checks that failed against a batch's faithful control: the batch's doing, never a finding (fails the harness). */
  controlFailures: string[]
  results: FieldResult[]
  /** The whole map of the clean run (selected or not), in its sorted order. */
  map: FieldEntry[]
  /**
   * Every non-free perturbation applied was caught (what --fail-on-miss requires), the record green, no control failed,
   * no free field caught.
   */
  allCaught: boolean
  passed: boolean
}
