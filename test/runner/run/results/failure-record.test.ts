import type { TestCase } from 'vitest/node'
import { describe, expect, it } from 'vitest'
import { failureRecord } from '../../../../helpers/checks/check'
import { expectStatus } from '../../../../helpers/checks/expect'
import { renderFailure } from '../../../../helpers/checks/failure'
import type { FailureRecord } from '../../../../helpers/checks/task-meta'
import type { HttpResult } from '../../../../helpers/client/http/types'
import { checkOutcomes } from '../../../../runner/vitest/summary-reporter'
import { consoleLines, findingLine } from '../../../../runner/run/results/console-lines'
import { junitXml } from '../../../../runner/run/results/junit'
import { emptyTotals, type ChecksReport } from '../../../../runner/run/results/results'

const meta = {
  id: 'SL-DEC-002',
  spec: 'sales' as const,
  section: '§3',
  requirement: 'A declined quote cannot be bound.',
}

function bound(): HttpResult {
  const url = 'http://h.test/api/v1/ledger/sales/policies/42/bind'
  return {
    status: 204,
    headers: {},
    body: undefined,
    raw: Buffer.alloc(0),
    text: '',
    contentType: '',
    durationMs: 1,
    request: { method: 'POST', url, headers: {} },
    exchange: {
      at: 't',
      runId: 'r',
      template: '/api/v1/ledger/sales/policies/{policyId}/bind',
      method: 'POST',
      url,
      status: 204,
      durationMs: 1,
      operationId: 'sales.quote.bind',
      request: { headers: {}, body: '{}' },
      response: { headers: {}, contentType: '', body: '' },
    },
  }
}

function caught(fn: () => void): unknown {
  try {
    fn()
  } catch (e) {
    return e
  }
  throw new Error('expected a failure')
}

/**
 * A failed vitest test case of the check, carrying the record as the check library leaves it; its error message is not
 * read.
 */
function failedCase(record: FailureRecord, message = 'not read by any report'): TestCase {
  return {
    name: `${meta.id} r`,
    module: { moduleId: `${process.cwd()}/suites/sales/decline.test.ts` },
    options: { mode: 'run' },
    diagnostic: () => ({ duration: 1 }),
    meta: () => ({ check: { ...meta, document: 'sales-service.md' }, failure: record }),
    result: () => ({ state: 'failed', errors: [{ name: 'Error', message }] }),
  } as unknown as TestCase
}

describe('a failure is one record, every report rendered from it', () => {
  const record = failureRecord(
    meta,
    caught(() => expectStatus(bound(), '4xx')),
  )

  it('the record holds the expectation as data, the operation, the answer and the evidence', () => {
    expect(record).toMatchObject({
      kind: 'failed',
      id: 'SL-DEC-002',
      clause: 'sales-service.md §3',
      expectation: { kind: 'status', statuses: ['4xx'], classes: ['4'] },
      expected: 'status 4xx',
      actual: 'status 204',
      operation: 'sales.quote.bind',
      status: 204,
      answer: 't  POST http://h.test/api/v1/ledger/sales/policies/42/bind #1',
      request: 'POST http://h.test/api/v1/ledger/sales/policies/42/bind {}',
    })
    expect(record.reproduce[0]?.command).toMatch(
      /^curl -sS -i -X POST 'http:\/\/h\.test\/api\/v1\/ledger\/sales\/policies\/42\/bind'/,
    )
  })

  it(
    'checks.json (status, error, failure fields, about), JUnit and the console come from the record, not from the ' +
      'message',
    () => {
      const [c] = checkOutcomes([failedCase(record)], process.cwd())
      expect(c).toMatchObject({
        id: 'SL-DEC-002',
        status: 'failed',
        error: renderFailure(record),
        about: ['sales.quote.bind'],
      })
      expect(c!.failure).toEqual({
        clause: record.clause,
        requirement: record.requirement,
        expected: 'status 4xx',
        actual: 'status 204',
        request: record.request,
        response: record.response,
        reproduce: [record.reproduce[0]!.command],
      })
      // an errored record is errored, whatever vitest's error is named
      const [e] = checkOutcomes([failedCase({ ...record, kind: 'errored' })], process.cwd())
      expect(e!.status).toBe('errored')
      const line = findingLine(c!)
      expect(line).toBe('expected status 4xx, got status 204 (POST http://h.test/api/v1/ledger/sales/policies/42/bind)')
      const report: ChecksReport = {
        run: undefined,
        totals: { ...emptyTotals(), failed: 1 },
        checks: [c!],
        operations: [],
      }
      expect(consoleLines(report, false)).toContain(`  FAILED SL-DEC-002 sales-service.md §3: ${line}`)
      expect(junitXml([{ report }], report)).toContain(`<failure message="${line}" type="requirement violated">`)
    },
  )
})
