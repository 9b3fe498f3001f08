import { describe, expect, it } from 'vitest'
import {
  checkList,
  consoleReport,
  LATEST_MARKER,
  markdownReport,
  markdownTable,
  percent,
  seconds,
  textTable,
  withLatestResults,
} from '../../scripts/mutation/format'
import { falseAlarms, isCaught, meetsBar, score } from '../../scripts/mutation/score'
import type { DefectResult, MutationReport, VariationResult } from '../../scripts/mutation/types'

const defect = (name: string, verdict: DefectResult['verdict'], extra: Partial<DefectResult> = {}): DefectResult => ({
  name,
  area: 'auth',
  clause: 'sales-service.md §5',
  description: 'd',
  verdict,
  newFailures: [],
  clauseMatched: false,
  wallMs: 2500,
  ...extra,
})
const variation = (
  name: string,
  verdict: VariationResult['verdict'],
  extra: Partial<VariationResult> = {},
): VariationResult => ({
  name,
  description: 'd',
  verdict,
  failed: [],
  checksRun: 10,
  wallMs: 3000,
  ...extra,
})

describe('score', () => {
  it('is caught over all defects minus the undetectable ones', () => {
    const s = score([
      defect('a', 'caught'),
      defect('b', 'stopped'),
      defect('c', 'missed'),
      defect('d', 'undetectable'),
      defect('e', 'error'),
    ])
    expect(s).toEqual({ caught: 2, scored: 4, undetectable: 1, ratio: 0.5 })
  })
  it('is 1 when nothing is scored', () => {
    expect(score([]).ratio).toBe(1)
  })
  it('counts stopped runs as caught, errors and misses not', () => {
    expect(isCaught(defect('a', 'stopped'))).toBe(true)
    expect(isCaught(defect('a', 'error'))).toBe(false)
  })
  it('counts every variation that is not green as a false alarm', () => {
    expect(falseAlarms([variation('a', 'green'), variation('b', 'false-alarm'), variation('c', 'error')])).toBe(2)
  })
  it('meets the bar only with the score, zero false alarms and a green faithful run', () => {
    const full = { caught: 3, scored: 3, undetectable: 0, ratio: 1 }
    expect(meetsBar(full, 1, 0, true)).toBe(true)
    expect(meetsBar({ ...full, caught: 2, ratio: 2 / 3 }, 1, 0, true)).toBe(false)
    expect(meetsBar({ ...full, caught: 2, ratio: 2 / 3 }, 0.6, 0, true)).toBe(true)
    expect(meetsBar(full, 1, 1, true)).toBe(false)
    expect(meetsBar(full, 1, 0, false)).toBe(false)
  })
})

describe('format', () => {
  it('formats seconds, percent and check lists', () => {
    expect(seconds(1234)).toBe('1.2 s')
    expect(seconds(undefined)).toBe('-')
    expect(percent(0.975)).toBe('97.5%')
    const fc = (id: string) => ({ id, document: 'x', section: '§1' })
    expect(checkList([])).toBe('-')
    expect(checkList([fc('A'), fc('B'), fc('C')], 2)).toBe('A, B +1')
  })
  it('pads a text table to its widest cell', () => {
    expect(textTable(['a', 'bb'], [['xxx', 'y']]).split('\n')).toEqual(['a    bb', '---  --', 'xxx  y'])
  })
  it('escapes pipes in markdown cells', () => {
    expect(markdownTable(['h'], [['a|b']])).toBe('| h |\n|---|\n| a\\|b |')
  })
  it('reports every defect and variation with its verdict and the headline', () => {
    const r: MutationReport = {
      startedAt: '2026-01-01T00:00:00Z',
      wallMs: 60_000,
      parallel: 2,
      scope: 'suite',
      bar: 1,
      baseline: variation('faithful reference', 'green'),
      score: { caught: 1, scored: 2, undetectable: 1, ratio: 0.5 },
      falseAlarms: 1,
      defects: [
        defect('auth-a', 'caught', {
          newFailures: [{ id: 'SEC-1', document: 'sales-service.md', section: '§5' }],
          clauseMatched: true,
          firstFailureMs: 800,
        }),
        defect('auth-b', 'missed', { outputTail: 'tail' }),
        defect('auth-c', 'undetectable', { undetectable: 'server-side only' }),
      ],
      distribution: {
        defects: 1,
        median: 1,
        p90: 1,
        max: 1,
        onClause: 1,
        worst: [{ name: 'auth-a', failed: 1, blocked: 0, offClause: [] }],
      },
      variations: [
        variation('key-order', 'false-alarm', {
          failed: [{ id: 'WH-9', document: 'webhook-subscriptions.md', section: '§4', error: 'expected x' }],
        }),
      ],
      passed: false,
    }
    const text = consoleReport(r)
    expect(text).toMatch(/auth-a\s+sales-service\.md §5\s+caught\s+2\.5 s\s+0\.8 s\s+yes\s+SEC-1/)
    expect(text).toMatch(/auth-b .*MISSED/)
    expect(text).toMatch(/auth-c .*undetectable \(excluded\).*server-side only/)
    expect(text).toMatch(/key-order\s+FALSE ALARM\s+10\s+3\.0 s\s+WH-9/)
    expect(text).toMatch(/mutation score 50\.0% \(1\/2 caught, 1 undetectable excluded; bar 100\.0%\)/)
    expect(text).toMatch(/verdict FAIL/)
    const md = markdownReport(r)
    expect(md).toMatch(/^# Mutation report/)
    expect(md).toMatch(/\| auth-a \| sales-service\.md §5 \| caught \|/)
    expect(md).toMatch(/### key-order: FALSE ALARM[\s\S]*`WH-9`[\s\S]*expected x/)
    expect(md).toMatch(/### auth-b: MISSED/)
  })
})

describe('withLatestResults', () => {
  it('replaces what follows the marker and keeps what precedes it', () => {
    const doc = `# Doc\n\ntext\n\n${LATEST_MARKER}\nold table\n`
    expect(withLatestResults(doc, 'new table')).toBe(`# Doc\n\ntext\n\n${LATEST_MARKER}\nnew table\n`)
    expect(() => withLatestResults('# no marker', 'x')).toThrow(/marker/)
  })
})
