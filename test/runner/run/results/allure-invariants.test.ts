import { describe, expect, it } from 'vitest'
import { invariantAllureResult } from '../../../../runner/run/results/allure-invariants'
import type { CheckOutcome } from '../../../../runner/run/results/results'

const base: CheckOutcome = {
  id: 'SL-INV-001',
  document: 'sales-service.md',
  section: '§3',
  requirement: 'A final status never changes.',
  title: 'SL-INV-001 A final status never changes.',
  file: 'helpers/oracle/invariants.ts',
  status: 'passed',
  durationMs: 0,
  deviations: [],
  note: 'evaluated on 3 answer(s)',
}
const label = (r: Record<string, unknown>, name: string) =>
  (r.labels as { name: string; value: string }[]).find((l) => l.name === name)?.value

describe('invariantAllureResult', () => {
  it('carries the labels of any check and the status of checks.json', () => {
    const r = invariantAllureResult(base, 'u1', 5)
    expect(r).toMatchObject({
      uuid: 'u1',
      name: base.title,
      status: 'passed',
      fullName: `helpers/oracle/invariants.ts > ${base.title}`,
    })
    expect([label(r, 'specDocument'), label(r, 'specSection'), label(r, 'checkId')]).toEqual([
      'sales-service.md',
      '§3',
      'SL-INV-001',
    ])
  })

  it('fails a broken invariant with the checks that broke it, skips one not applicable with its reason', () => {
    const failed = invariantAllureResult(
      { ...base, status: 'failed', error: 'changed\nbroken in the answers of: SL-LIFE-001' },
      'u2',
      5,
    )
    expect(failed).toMatchObject({
      status: 'failed',
      statusDetails: { message: 'changed\nbroken in the answers of: SL-LIFE-001' },
    })
    const na = invariantAllureResult(
      { ...base, status: 'not-applicable', note: 'not applicable: nothing to judge' },
      'u3',
      5,
    )
    expect(na).toMatchObject({ status: 'skipped', statusDetails: { message: 'not applicable: nothing to judge' } })
  })

  it('names the target of a multi-target run', () => {
    const r = invariantAllureResult(base, 'u4', 5, 'acme')
    expect(r.fullName).toBe(`acme > helpers/oracle/invariants.ts > ${base.title}`)
    expect(label(r, 'parentSuite')).toBe('acme')
    expect(r.historyId).not.toBe(invariantAllureResult(base, 'u4', 5).historyId)
  })
})
