import { describe, expect, it } from 'vitest'
import { withSharedAnswers } from '../../../../runner/run/results/shared-answers'
import type { CheckOutcome } from '../../../../runner/run/results/results'

const outcome = (id: string, status: CheckOutcome['status'], extra: Partial<CheckOutcome> = {}): CheckOutcome =>
  ({
    id,
    document: 'sales-service.md',
    section: '§4',
    requirement: 'r',
    title: id,
    file: 'f',
    durationMs: 0,
    deviations: [],
    status,
    ...extra,
  }) as CheckOutcome
const answers = (entries: Record<string, string[]>) =>
  new Map(Object.entries(entries).map(([id, a]) => [id, new Set(a)]))
const sameAs = (out: CheckOutcome[]) =>
  Object.fromEntries(out.filter((c) => c.sameFindingAs).map((c) => [c.id, c.sameFindingAs]))

describe('withSharedAnswers: failures on one answer are one finding', () => {
  it('joins invariants broken by the same answer, under the first by id', () => {
    // one read sends numbers as strings: the value, the type and the round-trip invariants all break on it
    const out = withSharedAnswers(
      [outcome('SL-INV-003', 'failed'), outcome('SL-INV-002', 'failed'), outcome('SL-INV-009', 'failed')],
      answers({ 'SL-INV-002': ['get#1'], 'SL-INV-003': ['get#1'], 'SL-INV-009': ['get#1', 'get#2'] }),
    )
    expect(sameAs(out)).toEqual({ 'SL-INV-003': ['SL-INV-002'], 'SL-INV-009': ['SL-INV-002'] })
    expect(out.find((c) => c.id === 'SL-INV-009')?.error).toContain('the same finding as SL-INV-002')
  })

  it('roots a group at its check, and joins through a shared answer', () => {
    // the check failed on list#1; one invariant broke on it, a second on a later call whose expectation list#1 set
    const out = withSharedAnswers(
      [outcome('SL-INV-004', 'failed'), outcome('SL-INV-010', 'failed'), outcome('SL-REF-002', 'failed')],
      answers({ 'SL-REF-002': ['list#1'], 'SL-INV-010': ['list#1', 'list#2'], 'SL-INV-004': ['calc#1', 'list#2'] }),
    )
    expect(sameAs(out)).toEqual({ 'SL-INV-004': ['SL-REF-002'], 'SL-INV-010': ['SL-REF-002'] })
  })

  it("keeps failures on other answers, passes and failures already another's as they are", () => {
    const input = [
      outcome('A', 'failed'),
      outcome('B', 'failed'),
      outcome('C', 'passed'),
      outcome('D', 'failed', { sameFindingAs: ['A'] }),
      outcome('E', 'failed'),
    ]
    const out = withSharedAnswers(input, answers({ A: ['x'], B: ['y'], C: ['x'], D: ['y'], E: [] }))
    expect(out).toBe(input)
    expect(sameAs(out)).toEqual({ D: ['A'] })
  })

  it("joins through a failure that is already another's, which keeps its own sameFindingAs", () => {
    // an expired token accepted on three operations: the invariant is the same finding as the checks that failed on
    // its answers; those answers make the checks one finding
    const out = withSharedAnswers(
      [
        outcome('SL-SCOPE-004', 'failed'),
        outcome('SL-SCOPE-005', 'failed'),
        outcome('AUTH-TOKEN-002', 'failed'),
        outcome('SL-INV-007', 'failed', { sameFindingAs: ['AUTH-TOKEN-002', 'SL-SCOPE-004', 'SL-SCOPE-005'] }),
      ],
      answers({ 'SL-SCOPE-004': ['a'], 'SL-SCOPE-005': ['b'], 'AUTH-TOKEN-002': ['c'], 'SL-INV-007': ['a', 'b', 'c'] }),
    )
    expect(sameAs(out)).toEqual({
      'SL-SCOPE-004': ['AUTH-TOKEN-002'],
      'SL-SCOPE-005': ['AUTH-TOKEN-002'],
      'SL-INV-007': ['AUTH-TOKEN-002', 'SL-SCOPE-004', 'SL-SCOPE-005'],
    })
    // one that is a blocked check's finding: it links, and stays that check's
    const blocked = withSharedAnswers(
      [
        outcome('A', 'failed', { sameFindingAs: ['Z'] }),
        outcome('Z', 'blocked'),
        outcome('B', 'failed'),
        outcome('C-INV-001', 'failed'),
      ],
      answers({ A: ['x'], B: ['x', 'y'], 'C-INV-001': ['y'] }),
    )
    expect(sameAs(blocked)).toEqual({ A: ['Z'], 'C-INV-001': ['B'] })
  })
})
