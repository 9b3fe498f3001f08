import { describe, expect, it } from 'vitest'
import {
  exploreDefectList,
  formatDefectTable,
  MAX_REPLAY,
  meetsBar,
  type DefectExploration,
} from '../../scripts/explore/defects'

const row = (o: Partial<DefectExploration>): DefectExploration => ({
  defect: 'd',
  area: 'sales',
  mustFind: true,
  found: true,
  replaySteps: 2,
  broken: ['SL-INV-004'],
  stepsToFailure: 10,
  stepsRun: 20,
  seconds: 3,
  reproducedAlone: true,
  ...o,
})

describe('npm run explore:defects: which defects, the bar, the table', () => {
  it(
    'each defect of scripts/explore/model-cases.ts once; the 33 new ones of webhooks, sales and policies of issue ' +
      '14, the 38 of issue 29, the sales one of issue 37 and the 3 of issue 42 must be found, the reused older and ' +
      'auth ones and the races of issue 41 (npm run explore:seeds finds those) are listed only',
    () => {
      const list = exploreDefectList()
      expect(new Set(list.map((d) => d.defect)).size).toBe(list.length)
      const must = list.filter((d) => d.mustFind)
      expect(must.length).toBe(75)
      expect(must.filter((d) => d.area === 'webhooks').length).toBe(11)
      expect(must.filter((d) => d.area === 'sales').length).toBe(36)
      expect(must.filter((d) => d.area === 'policies').length).toBe(28)
      expect(
        list
          .filter((d) => !d.mustFind)
          .map((d) => d.defect)
          .sort(),
      ).toEqual([
        'auth-sales-expired-token-accepted',
        'auth-webhooks-expiry-leeway-hour',
        'concurrency-allocation-races-credit',
        'concurrency-double-issue',
        'concurrency-lost-update',
        'concurrency-update-revives-deleted',
        'policies-over-allocation-accepted',
        'webhooks-create-200',
        'webhooks-created-at-changes',
      ])
      expect(list.findIndex((d) => !d.mustFind)).toBe(75)
    },
  )

  it(
    `a must-find defect meets the bar only when found with a replay of at most ${MAX_REPLAY} steps that reproduces ` +
      `alone on a fresh reference; a listed one always`,
    () => {
      expect(meetsBar(row({}))).toBe(true)
      expect(meetsBar(row({ replaySteps: MAX_REPLAY }))).toBe(true)
      expect(meetsBar(row({ replaySteps: MAX_REPLAY + 1 }))).toBe(false)
      expect(meetsBar(row({ found: false, replaySteps: undefined }))).toBe(false)
      expect(meetsBar(row({ reproducedAlone: false }))).toBe(false)
      expect(meetsBar(row({ reproducedAlone: undefined }))).toBe(false)
      expect(meetsBar(row({ mustFind: false, found: false, replaySteps: undefined }))).toBe(true)
    },
  )

  it('the table has a row per defect and a summary line', () => {
    const text = formatDefectTable([
      row({ defect: 'a' }),
      row({ defect: 'b', found: false, replaySteps: undefined, broken: [], stepsToFailure: undefined }),
    ])
    expect(text).toContain('| `a` | yes | yes | 2 | SL-INV-004 | yes | 10 | 20 | 3.0 |')
    expect(text).toContain('| `b` | yes | **no** | - | - | - | - | 20 | 3.0 |')
    expect(text).toContain(`1/2 must-find defects found with a replay of at most ${MAX_REPLAY} steps`)
  })
})
