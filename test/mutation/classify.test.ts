import { describe, expect, it } from 'vitest'
import { citesClause, classifyDefect, classifyVariation, parseClause } from '../../scripts/mutation/classify'
import type { RunSummary } from '../../scripts/mutation/types'

const info = { area: 'auth', clause: 'sales-service.md §5', description: 'd' }
const run = (o: Partial<RunSummary>): RunSummary => ({
  exitCode: 0,
  checksRun: 10,
  failed: [],
  blocked: [],
  wallMs: 1000,
  outputTail: '',
  ...o,
})
const f = (id: string, section = '§5', document = 'sales-service.md') => ({ id, document, section })

describe('parseClause / citesClause', () => {
  it('splits document and section', () => {
    expect(parseClause('webhook-subscriptions.md §7')).toEqual({
      document: 'webhook-subscriptions.md',
      sections: ['§7'],
    })
    expect(parseClause('sales-service.md §4.2 (bind)')).toEqual({ document: 'sales-service.md', sections: ['§4.2'] })
    expect(parseClause('sales-service.md §4, §5')).toEqual({ document: 'sales-service.md', sections: ['§4', '§5'] })
  })
  it('matches the same document with a containing section only', () => {
    expect(citesClause(f('A', '§4'), 'sales-service.md §4.2')).toBe(true)
    expect(citesClause(f('A', '§4.2'), 'sales-service.md §4')).toBe(true)
    expect(citesClause(f('A', '§4'), 'sales-service.md §5')).toBe(false)
    expect(citesClause(f('A', '§41'), 'sales-service.md §4')).toBe(false)
    expect(citesClause(f('A', '§5', 'webhook-subscriptions.md'), 'sales-service.md §5')).toBe(false)
    expect(citesClause(f('A', '§1, §4'), 'sales-service.md §4')).toBe(true)
    expect(citesClause(f('A', '§3'), 'sales-service.md §4, §5')).toBe(false)
  })
})

describe('classifyDefect', () => {
  it('is caught when a check fails that passes on the faithful reference', () => {
    const r = classifyDefect(
      'x',
      info,
      run({ exitCode: 1, failed: [f('SEC-1'), f('OLD')], firstFailureMs: 300 }),
      new Set(['OLD']),
    )
    expect(r.verdict).toBe('caught')
    expect(r.newFailures.map((c) => c.id)).toEqual(['SEC-1'])
    expect(r.clauseMatched).toBe(true)
    expect(r.firstFailureMs).toBe(300)
  })
  it('is missed when the only failures also fail on the faithful reference', () => {
    expect(classifyDefect('x', info, run({ exitCode: 1, failed: [f('OLD')] }), new Set(['OLD'])).verdict).toBe('missed')
  })
  it('is missed when the run passes', () => {
    expect(classifyDefect('x', info, run({}), new Set()).verdict).toBe('missed')
  })
  it('is stopped (caught) when the run refused to start with a reason', () => {
    const r = classifyDefect(
      'x',
      info,
      run({
        exitCode: 1,
        checksRun: 0,
        stopMessage: 'Login failed: no JWT. No check was run.',
        stoppedByPreflight: true,
      }),
      new Set(),
    )
    expect(r.verdict).toBe('stopped')
    expect(r.stopMessage).toMatch(/Login failed/)
  })
  it('is an error when the run broke without a failed check or a reason', () => {
    expect(classifyDefect('x', info, run({ exitCode: null, checksRun: 0 }), new Set()).verdict).toBe('error')
    expect(classifyDefect('x', info, run({ exitCode: 1, checksRun: 5 }), new Set()).verdict).toBe('error')
    const crash = classifyDefect(
      'x',
      info,
      run({ exitCode: 1, checksRun: 0, stopMessage: "can't resolve reference x", stoppedByPreflight: false }),
      new Set(),
    )
    expect(crash.verdict).toBe('error')
    expect(crash.stopMessage).toMatch(/resolve/)
  })
  it('keeps the reason of a defect shown undetectable, without needing a run', () => {
    const r = classifyDefect('x', { ...info, undetectable: 'only visible in server logs' }, undefined, new Set())
    expect(r.verdict).toBe('undetectable')
    expect(r.undetectable).toBe('only visible in server logs')
  })
  it("flags a catch that does not cite the defect's clause", () => {
    expect(
      classifyDefect('x', info, run({ exitCode: 1, failed: [f('WH-1', '§7', 'webhook-subscriptions.md')] }), new Set())
        .clauseMatched,
    ).toBe(false)
  })
})

describe('classifyVariation', () => {
  it('is green when checks ran and none failed', () => {
    expect(classifyVariation('v', 'd', run({})).verdict).toBe('green')
  })
  it('is a false alarm on any failed check', () => {
    expect(classifyVariation('v', 'd', run({ exitCode: 1, failed: [f('A')] })).verdict).toBe('false-alarm')
  })
  it('is an error when no check ran', () => {
    const v = classifyVariation('v', 'd', run({ exitCode: 1, checksRun: 0, stopMessage: 'Target unreachable' }))
    expect(v.verdict).toBe('error')
    expect(v.stopMessage).toBe('Target unreachable')
    expect(classifyVariation('v', 'd', run({ exitCode: 0, checksRun: 0 })).verdict).toBe('error')
  })
})
