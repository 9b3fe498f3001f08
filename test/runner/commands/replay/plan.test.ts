import { describe, expect, it } from 'vitest'
import {
  exchangeSources,
  findCheck,
  planReplay,
  rebase,
  recordedRequest,
  resultOfCheck,
  type RecordedRequest,
} from '../../../../runner/commands/replay/plan'

const run = { salesBaseUrl: 'http://old:1', webhookBaseUrl: 'http://old:1', authUrl: 'http://old:1/api/v1/identifier' }
const now = {
  salesBaseUrl: 'http://new:2',
  webhookBaseUrl: 'http://hooks:3',
  authUrl: 'http://new:2/api/v1/identifier',
}
const req = (method: string, url: string, extra: Partial<RecordedRequest> = {}): RecordedRequest => ({
  method,
  url,
  headers: { authorization: 'Bearer [REDACTED]', 'x-tenant': 'acme' },
  originally: '200',
  ...extra,
})

describe('replay: choosing the exchanges', () => {
  it('finds the check by id, or names the nearest id', () => {
    const report = { checks: [{ id: 'WH-CREATE-001' }, { id: 'AUTH-LOGIN-001' }] as never[] }
    expect(findCheck(report, 'WH-CREATE-001')).toHaveProperty('check.id', 'WH-CREATE-001')
    expect(findCheck(report, 'wh-create-001')).toHaveProperty('check.id', 'WH-CREATE-001')
    expect(findCheck(report, 'WH-CRAETE-001')).toEqual({
      problem: "no check 'WH-CRAETE-001' in the last run's reports. Did you mean WH-CREATE-001?",
    })
    expect(findCheck(report, 'ZZZ')).toEqual({ problem: "no check 'ZZZ' in the last run's reports" })
  })

  it("takes the check's latest result of the run, and its exchange steps in the order they were sent", () => {
    const results = [
      { name: 'WH-CREATE-001 old run', start: 100, steps: [] },
      { name: 'WH-CREATE-0010 another check', start: 5000 },
      {
        name: 'WH-CREATE-001 the run',
        start: 2000,
        steps: [
          { start: 3, attachments: [{ name: 'exchange', source: 'b' }] },
          {
            start: 1,
            steps: [
              {
                start: 2,
                attachments: [
                  { name: 'exchange', source: 'a' },
                  { name: 'other', source: 'x' },
                ],
              },
            ],
          },
        ],
      },
    ]
    const r = resultOfCheck(results, 'WH-CREATE-001', new Date(1500).toISOString())
    expect(r?.name).toBe('WH-CREATE-001 the run')
    expect(exchangeSources(r!)).toEqual(['a', 'b'])
    expect(resultOfCheck(results, 'WH-CREATE-001', new Date(9000).toISOString())).toBeUndefined()
  })

  it('reads an exchange attachment as a request, with what the run got', () => {
    expect(
      recordedRequest({
        request: { method: 'POST', url: 'http://old:1/x', headers: { a: 'b' }, body: { n: 1 } },
        response: { status: 200 },
      }),
    ).toEqual({ method: 'POST', url: 'http://old:1/x', headers: { a: 'b' }, body: '{"n":1}', originally: '200' })
    expect(
      recordedRequest({ request: { method: 'GET', url: 'http://old:1/x' }, response: { error: 'ECONNRESET' } })
        ?.originally,
    ).toBe('no response (ECONNRESET)')
    expect(recordedRequest({ nothing: true })).toBeUndefined()
  })

  it(
    'moves each URL to the same service of the target resolved now, the auth URL before the sales base it ' + 'extends',
    () => {
      expect(rebase('http://old:1/api/v1/identifier/login/acme', run, now)).toBe(
        'http://new:2/api/v1/identifier/login/acme',
      )
      expect(
        rebase('http://old:1/api/webhook/subscription?x=1', { ...run, webhookBaseUrl: 'http://oldhooks:4' }, now),
      ).toBe('http://new:2/api/webhook/subscription?x=1')
      expect(rebase('http://oldhooks:4/subs', { ...run, webhookBaseUrl: 'http://oldhooks:4' }, now)).toBe(
        'http://hooks:3/subs',
      )
      expect(rebase('http://old:1/api/webhook/subscription', run, now, 'POST')).toBe(
        'http://hooks:3/api/webhook/subscription',
      )
      expect(rebase('http://elsewhere/x', run, now)).toBe('http://elsewhere/x')
    },
  )
})

describe('replay: the no-writes rule', () => {
  const recorded = [
    req('POST', 'http://old:1/api/v1/identifier/login/acme', {
      headers: {},
      body: '{"username":"u","password":"[REDACTED]"}',
    }),
    req('POST', 'http://old:1/api/v1/subscriptions', { body: '{"url":"http://x"}', originally: '200' }),
    req('GET', 'http://old:1/api/v1/subscriptions/abc'),
    req('PATCH', 'http://old:1/api/v1/subscriptions/abc', { body: '{}' }),
    req('DELETE', 'http://old:1/api/v1/subscriptions/abc'),
    req('PUT', 'http://old:1/api/v1/subscriptions/abc', { body: '{}' }),
    req('HEAD', 'http://old:1/api/v1/subscriptions/abc'),
  ]

  it(
    're-sends only GET, HEAD and OPTIONS when writes are not allowed (--read-only), and says why each other one was ' +
      'skipped',
    () => {
      const plan = planReplay(recorded, { run, now, allowWrites: false })
      expect(plan.map((s) => `${s.request.method} ${s.kind}`)).toEqual([
        'POST skip',
        'POST skip',
        'GET send',
        'PATCH skip',
        'DELETE skip',
        'PUT skip',
        'HEAD send',
      ])
      expect(plan[0]).toMatchObject({ reason: expect.stringMatching(/login of the run.*configured credentials/) })
      for (const i of [1, 3, 4, 5])
        expect(plan[i]).toMatchObject({ reason: expect.stringMatching(/not re-sent with --read-only/) })
    },
  )

  it(
    "re-sends writes with --allow-writes, never the run's login, never a request whose redacted secret is " + 'unknown',
    () => {
      const withSecret = req('POST', 'http://old:1/api/v1/subscriptions', { body: '{"secret":"[REDACTED]"}' })
      const plan = planReplay([...recorded, withSecret], { run, now, allowWrites: true })
      expect(plan.map((s) => s.kind)).toEqual(['skip', 'send', 'send', 'send', 'send', 'send', 'send', 'skip'])
      expect(plan[7]).toMatchObject({ reason: expect.stringMatching(/body carried a secret that was redacted/) })
    },
  )

  it('sends to the target resolved now, without the recorded authorization (the fresh token goes in its place)', () => {
    const [s] = planReplay([req('GET', 'http://old:1/api/v1/sales/1')], { run, now, allowWrites: false })
    expect(s).toEqual({
      kind: 'send',
      request: expect.anything(),
      url: 'http://new:2/api/v1/sales/1',
      headers: { 'x-tenant': 'acme' },
    })
  })
})
