import { describe, expect, it } from 'vitest'
import { withFindings, type ExchangeFinding } from '../../../../helpers/client/http/running-check'
import { Recorder } from '../../../../helpers/client/http/recorder'
import type { HttpResult, SentRequest } from '../../../../helpers/client/http/types'
import { Redactor } from '../../../../helpers/client/evidence/redact'

/**
 * The answer budget (issue #31, item 4): an answer above its operation's budget is a finding of its own on that
 * operation, and is recorded as its size and first characters (redacted), never redacted, copied or attached whole.
 */
const SECRET = 'budget-canary-secret-0123'

function answer(bytes: number): HttpResult {
  const items = [] as { id: string; note: string }[]
  let text = ''
  for (let i = 0; text.length < bytes; i += 1) {
    items.push({ id: `s${i}`, note: i === 60 ? SECRET : 'x'.repeat(20) })
    text = JSON.stringify({ data: items })
  }
  const request: SentRequest = { method: 'GET', url: 'http://t/api/webhook/subscriptions', headers: {} }
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.parse(text),
    raw: Buffer.from(text),
    text,
    contentType: 'application/json',
    durationMs: 1,
    request,
  }
}

function recorder(): Recorder {
  const r = new Redactor()
  r.addSecret(SECRET)
  return new Recorder({
    runId: 'r',
    redactor: r,
    sinks: [],
    answerBudget: { bytes: (op) => (op === 'webhooks.subscriptions.list' ? 4096 : 1_000_000), policy: 'fail' },
  })
}

describe('answer budget', () => {
  it(
    'an answer over its operation budget: one finding naming the request, the size and the budget; only its first ' +
      'characters recorded, redacted',
    async () => {
      const res = answer(20_000)
      const found: ExchangeFinding[] = []
      const ex = await withFindings(found, () => recorder().record(res.request, res))
      expect(found).toHaveLength(1)
      expect(found[0]!.id).toMatch(/^answer-budget:/)
      expect(found[0]!.policy).toBe('fail')
      expect(found[0]!.message).toMatch(
        new RegExp(
          `the answer of GET http://t/api/webhook/subscriptions \\(webhooks\\.subscriptions\\.list\\) \\(200\\) ` +
            `is ${res.raw.length} bytes, over the budget of \\d+ bytes`,
        ),
      )
      expect(ex.response?.overBudget).toBe(res.raw.length)
      expect(ex.response!.body.length).toBeLessThan(2200)
      expect(ex.response!.body).not.toContain(SECRET)
    },
  )

  it('the size above which an answer is not parsed: its operation budget under policy fail, none under warn', () => {
    expect(recorder().parseBudget('GET', 'http://t/api/webhook/subscriptions')).toBe(4096)
    expect(recorder().parseBudget('GET', 'http://t/api/webhook/events')).toBe(1_000_000)
    const warn = new Recorder({
      runId: 'r',
      redactor: new Redactor(),
      sinks: [],
      answerBudget: { bytes: () => 4096, policy: 'warn' },
    })
    expect(warn.parseBudget('GET', 'http://t/api/webhook/subscriptions')).toBeUndefined()
  })

  it(
    'an unparsed answer over its budget (body undefined, text empty) is recorded from its bytes: size and redacted ' +
      'first characters',
    async () => {
      const parsed = answer(20_000)
      const res: HttpResult = { ...parsed, body: undefined, text: '', overBudget: parsed.raw.length }
      const found: ExchangeFinding[] = []
      const ex = await withFindings(found, () => recorder().record(res.request, res))
      expect(found.map((f) => f.id)).toEqual(['answer-budget:webhooks.subscriptions.list'])
      expect(ex.response?.overBudget).toBe(res.raw.length)
      expect(ex.response!.body).toContain('"s1"')
      expect(ex.response!.body).not.toContain(SECRET)
    },
  )

  it('an answer within its budget: no finding, recorded as before', async () => {
    const res = answer(2000)
    const found: ExchangeFinding[] = []
    const ex = await withFindings(found, () => recorder().record(res.request, res))
    expect(found).toEqual([])
    expect(ex.response?.overBudget).toBeUndefined()
    expect(ex.response!.body).toContain('"s1"')
  })
})
