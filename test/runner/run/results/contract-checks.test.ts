import type { TestCase } from 'vitest/node'
import { describe, expect, it } from 'vitest'
import { contractOutcomes } from '../../../../runner/run/results/contract-checks'
import type { ContractNote } from '../../../../helpers/client/http/running-check'

const note = (kind: string, policy: 'warn' | 'fail', actual: string, exchange: string): ContractNote => ({
  id: `CT-sales.policy.invoices-${kind}`,
  operation: 'sales.policy.invoices',
  kind,
  policy,
  document: '/docs/sales.openapi.json',
  pointer: `/docs/sales.openapi.json#/paths/~1x/get/responses/200`,
  expected: 'a body matching the declared schema (#/type)',
  actual,
  exchange,
})

/** The part of a vitest TestCase contractOutcomes reads: the check's id and the contract notes of its answers. */
function tc(id: string, contract: ContractNote[]): TestCase {
  const meta = { check: { id }, contract }
  return { name: id, meta: () => meta, result: () => ({ state: 'passed' }) } as unknown as TestCase
}

describe('contractOutcomes: each finding kind on each operation as a contract check of its own', () => {
  const outcomes = contractOutcomes([
    tc('PL-DATA-001', [
      note('response', 'fail', 'response / must be object', 'GET /p/1/invoices (200)'),
      note('status', 'warn', 'status 404 is not documented (200)', 'GET /p/9/invoices (404)'),
    ]),
    tc('PL-CON-001', [note('response', 'fail', 'response / must be object', 'GET /p/2/invoices (200)')]),
    tc('SL-LIFE-001', []),
  ])
  const of = (id: string) => outcomes.find((o) => o.id === id)!

  it(
    'counts a finding once however many exchanges and checks show it, naming the document, pointer, expectation, ' +
      'answer and exchanges',
    () => {
      expect(outcomes.map((o) => o.id)).toEqual([
        'CT-sales.policy.invoices-response',
        'CT-sales.policy.invoices-status',
      ])
      const response = of('CT-sales.policy.invoices-response')
      expect(response).toMatchObject({
        status: 'failed',
        document: 'sales.openapi.json',
        section: 'contract',
        about: ['sales.policy.invoices'],
        note: '1 distinct finding(s)',
        deviations: [],
      })
      expect(response.error).toBe(
        [
          'actual: response / must be object',
          'expected: a body matching the declared schema (#/type)',
          'document: /docs/sales.openapi.json',
          'pointer: /docs/sales.openapi.json#/paths/~1x/get/responses/200',
          'exchange: GET /p/1/invoices (200); GET /p/2/invoices (200)',
          'received by: PL-CON-001, PL-DATA-001',
        ].join('\n'),
      )
    },
  )

  it('makes a finding of policy warn a deviation of a passed contract check', () => {
    expect(of('CT-sales.policy.invoices-status')).toMatchObject({
      status: 'passed',
      deviations: [
        {
          id: 'openapi-contract:CT-sales.policy.invoices-status',
          policy: 'warn',
          message: expect.stringMatching(/^actual: status 404 is not documented \(200\)\n/),
        },
      ],
    })
  })

  it('names the requirement of the response-headers kind', () => {
    const [h] = contractOutcomes([
      tc('PL-DATA-001', [
        note(
          'response-headers',
          'fail',
          'response header X-Rate-Limit is required and missing',
          'GET /p/1/invoices (200)',
        ),
      ]),
    ])
    expect(h).toMatchObject({
      id: 'CT-sales.policy.invoices-response-headers',
      status: 'failed',
      requirement:
        'sales.policy.invoices: its answers carry the headers the published document declares for their status, with ' +
        'values matching their schemas.',
    })
  })

  it('lists nothing when no answer gave a finding', () => {
    expect(contractOutcomes([tc('SL-LIFE-001', [])])).toEqual([])
  })
})
