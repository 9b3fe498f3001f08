import { describe, expect, it } from 'vitest'
import type { CatalogueEntry } from '../../../../runner/run/selection/catalogue'
import { citedSections, parseSection, selectChecks, SelectionError } from '../../../../runner/run/selection/select'

const e = (id: string, section: string, extra: Partial<CatalogueEntry> = {}): CatalogueEntry => ({
  id,
  document: id.startsWith('WH') ? 'webhook-subscriptions.md' : 'sales-service.md',
  section,
  requirement: `req ${id}`,
  about: [],
  file: 'suites/x.test.ts',
  ...extra,
})

const catalogue: CatalogueEntry[] = [
  e('SL-LIFE-001-home', '§4', { lifecycle: 'life home', file: 'suites/sales/lifecycle.test.ts' }),
  e('SL-LIFE-002-home', '§3', { lifecycle: 'life home', file: 'suites/sales/lifecycle.test.ts' }),
  e('SL-LIFE-003-home', '§4', { lifecycle: 'life home', file: 'suites/sales/lifecycle.test.ts' }),
  e('SL-LIFEX-001', '§4'),
  e('SL-NEG-001', '§3, §4'),
  e('SEC-NOTOKEN-sales.quote.create', '§5', { about: ['sales.quote.create'] }),
  e('WH-LIFE-001', '§6', { file: 'suites/webhooks/lifecycle.test.ts' }),
  e('WH-ERR-001', '§6.2'),
  e('WH-EVT-001', '§2'),
]

describe('selectChecks()', () => {
  it('--check takes ids and id prefixes, several at once', () => {
    expect(selectChecks(catalogue, { checks: ['SL-LIFE-'] }).selected.map((x) => x.id)).toEqual([
      'SL-LIFE-001-home',
      'SL-LIFE-002-home',
      'SL-LIFE-003-home',
    ])
    expect(selectChecks(catalogue, { checks: ['WH-EVT-001', 'sec-'] }).selected.map((x) => x.id)).toEqual([
      'SEC-NOTOKEN-sales.quote.create',
      'WH-EVT-001',
    ])
  })

  it('--section finds every check citing the section, also in "§3, §4" and §N.x', () => {
    expect(selectChecks(catalogue, { sections: ['sales-service.md §3'] }).selected.map((x) => x.id)).toEqual([
      'SL-LIFE-001-home',
      'SL-LIFE-002-home',
      'SL-NEG-001',
    ])
    expect(selectChecks(catalogue, { sections: ['webhooks §6'] }).selected.map((x) => x.id)).toEqual([
      'WH-LIFE-001',
      'WH-ERR-001',
    ])
    expect(citedSections('§3, §4')).toEqual(['3', '4'])
    expect(parseSection('webhook-subscriptions.md §6')).toEqual({ document: 'webhook-subscriptions.md', section: '6' })
  })

  it('a selected lifecycle step brings the earlier steps of its lifecycle', () => {
    const r = selectChecks(catalogue, { checks: ['SL-LIFE-002'] })
    expect(r.selected.map((x) => x.id)).toEqual(['SL-LIFE-001-home', 'SL-LIFE-002-home'])
    expect(r.addedSteps).toEqual(['SL-LIFE-001-home'])
  })

  it('--operation selects the checks about the operation; an unknown id is a usage error naming the nearest', () => {
    expect(selectChecks(catalogue, { operations: ['sales.quote.create'] }).selected.map((x) => x.id)).toEqual([
      'SEC-NOTOKEN-sales.quote.create',
    ])
    expect(() => selectChecks(catalogue, { operations: ['sales.quote.creat'] })).toThrow(
      /nearest: sales\.quote\.create/,
    )
  })

  it('different options narrow down; suite files select their checks', () => {
    expect(
      selectChecks(catalogue, { checks: ['WH-'], sections: ['webhooks §6'], files: ['suites/webhooks'] }).selected.map(
        (x) => x.id,
      ),
    ).toEqual(['WH-LIFE-001'])
  })

  it('an empty selection names the nearest matches (a typo finds the prefix it meant)', () => {
    const r = selectChecks(catalogue, { checks: ['SL-LFE'] })
    expect(r.selected).toEqual([])
    expect(r.nearest[0]).toBe('--check SL-LIFE')
    expect(r.label).toBe('--check SL-LFE')
    expect(selectChecks(catalogue, { sections: ['webhooks §9'] }).nearest[0]).toMatch(/§2, §6, §6\.2/)
  })

  it('a malformed section is a usage error', () => {
    expect(() => selectChecks(catalogue, { sections: ['§4'] })).toThrow(SelectionError)
    expect(() => selectChecks(catalogue, { sections: ['billing §4'] })).toThrow(/unknown document/)
  })
})

describe('listLine(): one line of list, with where the check is declared', () => {
  it(
    'prints id, document and section, file:line, then the requirement; the file alone when the line is ' + 'unknown',
    async () => {
      const { listLine, whereOf } = await import('../../../../runner/run/selection/select')
      const withLine = e('SL-NEG-001', '§3', { file: 'suites/sales/negatives.test.ts', line: 42 })
      expect(whereOf(withLine)).toBe('suites/sales/negatives.test.ts:42')
      expect(whereOf(e('SL-NEG-002', '§3'))).toBe('suites/x.test.ts')
      expect(listLine(withLine, 12, 34)).toMatch(
        /^SL-NEG-001 {4}sales-service\.md §3 +suites\/sales\/negatives\.test\.ts:42 {3}req SL-NEG-001$/,
      )
    },
  )
})
