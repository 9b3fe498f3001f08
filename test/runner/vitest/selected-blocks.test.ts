import { describe, expect, it } from 'vitest'
import type { RunnerTestSuite } from 'vitest'
import { skipBlocksWithoutChecks } from '../../../runner/vitest/selected-blocks'
import type { CollectedBlock } from '../../../runner/run/selection/catalogue'
import type { CatalogueEntry } from '../../../runner/run/selection/catalogue'
import { simulateSelection } from '../../../runner/run/selection/verify'

type Node = { type: 'suite'; name: string; mode: string; tasks: (Node | { type: 'test'; name: string })[] }
const suite = (name: string, ...tasks: Node['tasks']): Node => ({ type: 'suite', name, mode: 'run', tasks })
const test = (name: string) => ({ type: 'test' as const, name })

describe('skipBlocksWithoutChecks()', () => {
  it('skips every block (nested too) that holds no check, and only those', () => {
    const empty = suite('identity: token validity')
    const nestedEmpty = suite('outer', suite('inner'))
    const kept = suite('login', test('AUTH-LOGIN-002'), suite('inner empty'))
    const file = suite('file', empty, nestedEmpty, kept)
    expect(skipBlocksWithoutChecks(file as unknown as RunnerTestSuite).sort()).toEqual([
      'identity: token validity',
      'inner',
      'inner empty',
      'outer',
    ])
    expect([empty.mode, nestedEmpty.mode, kept.mode, (kept.tasks[1] as Node).mode]).toEqual([
      'skip',
      'skip',
      'run',
      'skip',
    ])
  })
})

describe('simulateSelection()', () => {
  const entry = (id: string, file: string, lifecycle?: string): CatalogueEntry => ({
    id,
    document: 'sales-service.md',
    section: '§5',
    requirement: 'r',
    about: [],
    file,
    ...(lifecycle ? { lifecycle } : {}),
  })
  const tree = new Map<string, CollectedBlock>([
    [
      'suites/a.test.ts',
      {
        name: 'a',
        tests: [],
        blocks: [
          { name: 'life', tests: ['L-1', 'L-2'], blocks: [] },
          { name: 'x', tests: ['X-1'], blocks: [] },
        ],
      },
    ],
    ['suites/b.test.ts', { name: 'b', tests: ['B-1', undefined], blocks: [] }],
  ])

  it('a selection runs exactly its checks: no problem', () => {
    const r = simulateSelection(tree, { selected: [entry('X-1', 'suites/a.test.ts')] })
    expect(r).toEqual({ files: ['suites/a.test.ts'], ran: ['X-1'], problems: [] })
  })

  it('names a bare test, a missing check, a step without its earlier steps', () => {
    expect(simulateSelection(tree, { selected: [entry('B-1', 'suites/b.test.ts')] }).problems).toEqual([
      'suites/b.test.ts: test #2 is not a check (no meta.check): it runs in every selection',
    ])
    expect(simulateSelection(tree, { selected: [entry('B-9', 'suites/b.test.ts')] }).problems).toContain(
      'B-9: selected (shown by --list) but not defined in suites/b.test.ts: it would not run',
    )
    expect(simulateSelection(tree, { selected: [entry('L-2', 'suites/a.test.ts', 'life')] }).problems).toEqual([
      'L-2: lifecycle step selected without its earlier step(s) L-1',
    ])
  })
})
