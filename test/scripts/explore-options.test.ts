import { parseArgs } from 'node:util'
import { describe, expect, it } from 'vitest'
import { EXPLORE_OPTIONS, exploreOptionsFrom } from '../../runner/commands/explore/options'

const parse = (args: string[]) => parseArgs({ args, options: EXPLORE_OPTIONS }).values

describe('the options npm run explore and explore:defects share', () => {
  it('default each option; only the time limit differs between the two commands', () => {
    expect(exploreOptionsFrom(parse([]), { timeLimitS: 240 })).toEqual({
      seed: 1,
      steps: 300,
      maxSequence: 12,
      timeLimitMs: 240_000,
      stepsPerSecond: 20,
    })
    expect(exploreOptionsFrom(parse([]), { timeLimitS: 120 }).timeLimitMs).toBe(120_000)
  })

  it('take the command line over the default seed, and whole numbers of steps', () => {
    const o = exploreOptionsFrom(
      parse([
        '--seed',
        '7.9',
        '--steps',
        '50',
        '--max-sequence',
        '4',
        '--time-limit-s',
        '1.5',
        '--steps-per-second',
        '2.5',
      ]),
      { timeLimitS: 240, seed: '3' },
    )
    expect(o).toEqual({ seed: 7, steps: 50, maxSequence: 4, timeLimitMs: 1500, stepsPerSecond: 2.5 })
    expect(exploreOptionsFrom(parse([]), { timeLimitS: 240, seed: '3' }).seed).toBe(3)
  })

  it('refuse a value that is not a positive number, naming the option', () => {
    expect(() => exploreOptionsFrom(parse(['--steps', '0']), { timeLimitS: 240 })).toThrow(
      "--steps: expected a positive number, got '0'",
    )
    expect(() => exploreOptionsFrom(parse(['--time-limit-s', 'soon']), { timeLimitS: 240 })).toThrow('--time-limit-s')
  })
})
