import { describe, expect, it } from 'vitest'
import { renderFieldSources } from '../../../../runner/commands/list/fields-view'
import { ANSWER_SOURCES, sourceRows } from '../../../../helpers/oracle/answer-sources'

describe('ledger-conformance list --fields', () => {
  it(
    'prints every field of the source table, grouped by operation and status, with its kind and the invariant that ' +
      'judges it',
    () => {
      const { text, rows } = renderFieldSources(false)
      expect(rows).toBe(sourceRows().length)
      for (const answer of Object.keys(ANSWER_SOURCES)) expect(text).toContain(`\n${answer}\n`.trimStart())
      expect(text).toMatch(
        /\/data\/policy\/financials\/brokerComm +rule +SL-INV-022 +periodPremium × brokerCommPct \/ 100/,
      )
      expect(text).toMatch(/\/secret +agreement +WH-INV-021/)
    },
  )

  it('--json prints the table as JSON', () => {
    expect(JSON.parse(renderFieldSources(true).text)).toEqual(ANSWER_SOURCES)
  })
})
