import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isLane, suitesMatching, suitesOfLane, writeLane } from '../../../../runner/run/targets/lanes'
import { suiteFilesOf } from '../../../../runner/run/results/lane-files'
import type { RunnerTestFile } from 'vitest'
import { tempDir } from '../../../support/temp-dir'

function project(): string {
  const root = tempDir('lanes')
  mkdirSync(join(root, 'suites/sales'), { recursive: true })
  mkdirSync(join(root, 'suites/auth'), { recursive: true })
  writeFileSync(join(root, 'suites/sales/lifecycle.test.ts'), '')
  writeFileSync(join(root, 'suites/sales/negatives.test.ts'), '')
  writeFileSync(join(root, 'suites/auth/login.test.ts'), '')
  return root
}

/**
 * vitest's own filter rule (vitest/dist cli-api filterFiles): the relative path contains the filter,
 * case-insensitively.
 */
const vitestKeeps = (path: string, filter: string) =>
  path.toLowerCase().includes(filter.toLowerCase().replace(/^\.\//, ''))

describe('lanes: the suites of a single-target run in one entry file', () => {
  it('puts every suite in one lane, each in its own block, and reads them back', () => {
    const root = project()
    const include = writeLane(root, [])!
    expect(include).toHaveLength(1)
    expect(isLane(include[0]!)).toBe(true)
    const text = readFileSync(join(root, include[0]!), 'utf8')
    expect(text).toContain('runSuitesSideBySide()')
    expect(suitesOfLane(join(root, include[0]!))).toEqual([
      'suites/auth/login.test.ts',
      'suites/sales/lifecycle.test.ts',
      'suites/sales/negatives.test.ts',
    ])
    expect(text).toContain(
      "suiteBlock('suites/sales/lifecycle.test.ts', () => import('../../../suites/sales/lifecycle.test.ts'))",
    )
  })

  it("selects the suites vitest's file filters select, under a path vitest keeps for the first filter", () => {
    const root = project()
    for (const filters of [
      ['suites/sales'],
      ['negatives'],
      ['./suites/sales/'],
      [join(root, 'suites/auth')],
      ['SALES/LIFECYCLE', 'login'],
    ]) {
      const lane = writeLane(root, filters)![0]!
      const expected = suitesMatching(
        root,
        ['suites/auth/login.test.ts', 'suites/sales/lifecycle.test.ts', 'suites/sales/negatives.test.ts'],
        filters,
      )
      expect(suitesOfLane(join(root, lane))).toEqual(expected)
      const first = filters[0]!.startsWith('/') ? 'suites/auth' : filters[0]!
      expect(vitestKeeps(lane, first)).toBe(true)
    }
    expect(suitesMatching(root, ['suites/auth/login.test.ts', 'suites/sales/lifecycle.test.ts'], ['sales'])).toEqual([
      'suites/sales/lifecycle.test.ts',
    ])
  })

  it('has no lane for a filter that selects nothing or cannot be a folder name (one file per suite then)', () => {
    const root = project()
    expect(writeLane(root, ['nothing-matches'])).toBeUndefined()
    expect(writeLane(root, ['../suites/sales'])).toBeUndefined()
  })

  it('does not rewrite an unchanged lane', () => {
    const root = project()
    const lane = join(root, writeLane(root, ['suites/sales'])![0]!)
    const before = statSync(lane).mtimeMs
    writeLane(root, ['suites/sales'])
    expect(statSync(lane).mtimeMs).toBe(before)
  })
})

describe('lane files in the reports', () => {
  const test = (name: string, extra: object = {}) => ({
    type: 'test',
    name,
    meta: {},
    result: { state: 'pass' },
    ...extra,
  })
  function laneFile(): RunnerTestFile {
    const inner = {
      type: 'suite',
      name: 'sales: refused',
      meta: { suiteFile: 'suites/sales/negatives.test.ts' },
      tasks: [test('SL-NEG-001 a'), test('SL-NEG-002 b')],
    }
    const block = {
      type: 'suite',
      name: 'suites/sales/negatives.test.ts',
      meta: { suiteFile: 'suites/sales/negatives.test.ts' },
      tasks: [inner],
      result: { state: 'pass', duration: 5 },
    }
    const other = {
      type: 'suite',
      name: 'suites/auth/login.test.ts',
      meta: { suiteFile: 'suites/auth/login.test.ts' },
      tasks: [test('AUTH-1 c')],
    }
    return {
      type: 'suite',
      name: '.lanes/x/all/lane.test.ts',
      filepath: '/repo/.lanes/x/all/lane.test.ts',
      projectName: '',
      meta: {},
      tasks: [block, other],
    } as unknown as RunnerTestFile
  }

  it('gives each suite block back as a file of its own, its checks directly under it, without touching the run', () => {
    const lane = laneFile()
    const files = suiteFilesOf(lane, '/repo')
    expect(files.map((f) => [f.name, f.filepath])).toEqual([
      ['suites/sales/negatives.test.ts', '/repo/suites/sales/negatives.test.ts'],
      ['suites/auth/login.test.ts', '/repo/suites/auth/login.test.ts'],
    ])
    const [negatives] = files
    const describeBlock = negatives!.tasks[0]! as unknown as {
      name: string
      suite: unknown
      file: unknown
      tasks: { name: string; suite: { name: string }; file: unknown }[]
    }
    expect(describeBlock.name).toBe('sales: refused')
    expect(describeBlock.suite).toBeUndefined()
    expect(describeBlock.file).toBe(negatives)
    expect(describeBlock.tasks.map((t) => [t.name, t.suite.name, t.file === negatives])).toEqual([
      ['SL-NEG-001 a', 'sales: refused', true],
      ['SL-NEG-002 b', 'sales: refused', true],
    ])
    expect(negatives!.result).toEqual({ state: 'pass', duration: 5 })
    // the run's own tree is unchanged
    expect((lane.tasks[0] as unknown as { name: string }).name).toBe('suites/sales/negatives.test.ts')
    expect((lane.tasks[0] as unknown as { tasks: { file?: unknown }[] }).tasks[0]!.file).toBeUndefined()
  })

  it('returns a file that is not a lane as it is', () => {
    const plain = {
      type: 'suite',
      name: 'suites/auth/login.test.ts',
      meta: {},
      tasks: [test('AUTH-1 c')],
    } as unknown as RunnerTestFile
    expect(suiteFilesOf(plain, '/repo')).toEqual([plain])
  })
})
