import type { ExploreOptions } from './explore'

/** The options npm run explore and npm run explore:defects share, as node:util parseArgs declares them. */
export const EXPLORE_OPTIONS = {
  seed: { type: 'string' },
  steps: { type: 'string' },
  'max-sequence': { type: 'string' },
  'time-limit-s': { type: 'string' },
  'steps-per-second': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The parsed values of EXPLORE_OPTIONS. */
export interface ExploreValues {
  seed?: string
  steps?: string
  'max-sequence'?: string
  'time-limit-s'?: string
  'steps-per-second'?: string
}

function positive(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined) return fallback
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name}: expected a positive number, got '${v}'`)
  return n
}

/**
 * The exploration options from the command line, each defaulted (seed 1, 300 steps, sequences of at most 12, 20 steps
 * a second) but the time limit, whose default differs: 240 s for one exploration, 120 s per defect. Throws on a value
 * that is not a positive number, naming the option.
 */
export function exploreOptionsFrom(
  values: ExploreValues,
  defaults: { timeLimitS: number; seed?: string },
): ExploreOptions {
  return {
    seed: Math.floor(positive('seed', values.seed ?? defaults.seed, 1)),
    steps: Math.floor(positive('steps', values.steps, 300)),
    maxSequence: Math.floor(positive('max-sequence', values['max-sequence'], 12)),
    timeLimitMs: positive('time-limit-s', values['time-limit-s'], defaults.timeLimitS) * 1000,
    stepsPerSecond: positive('steps-per-second', values['steps-per-second'], 20),
  }
}
