import { describe, expect, it } from 'vitest'
import type { InvariantId } from '../../../helpers/oracle/invariants'
import { namesToken, SalesModel, type SalesCall } from '../../../helpers/oracle/sales-model'
import type { HttpResult } from '../../../helpers/client/http/types'
import type { Violation } from '../../../helpers/oracle/invariants'
import { SALES_DEFAULTS } from '../../../common/config/sales-settings'
import { answer } from './support'

const STATUSES = { pending: ['pending'], success: ['success'], failure: ['failure'] }
const ACME = { actor: 'acme/broker', tenant: 'acme' }

function model(): SalesModel {
  return new SalesModel(SALES_DEFAULTS, STATUSES, { policyIssued: () => undefined, mtaIssued: () => undefined })
}

function judge(m: SalesModel, call: Partial<SalesCall> & { op: string }, status: number, body: unknown): InvariantId[] {
  const evaluated = new Set<InvariantId>()
  const out: Violation[] = []
  m.begin(call.op, call.params ?? {})
  m.observe({ params: {}, overlapped: false, ...ACME, ...call }, answer(status, body), evaluated, out)
  return out.map((v) => v.invariant)
}

/** A created quote q1 whose actions were read (settled), holding salesChannel "direct". */
function created(): SalesModel {
  const m = model()
  judge(m, { op: 'sales.quote.create', json: { schema: { name: 'home' }, policy: { salesChannel: 'direct' } } }, 201, {
    policy: { id: 'q1' },
  })
  judge(m, { op: 'sales.quote.actions', params: { id: 'q1' } }, 200, { data: ['quote:update', 'quote:calculate'] })
  return m
}
const read = (m: SalesModel, channel: string, tenant = 'acme') =>
  judge(m, { op: 'sales.quote.get', params: { policyId: 'q1' }, tenant, actor: `${tenant}/broker` }, 200, {
    data: { schema: { name: 'home' }, policy: { salesChannel: channel } },
  })

describe('the sales model reports a breach once, on the first answer showing it', () => {
  it(
    'data read back other than written breaks SL-INV-002 once per wrong value; the expectation stays what was ' +
      'written',
    () => {
      const m = created()
      expect(read(m, 'direct')).toEqual([])
      expect(read(m, 'partner')).toEqual(['SL-INV-002'])
      expect(read(m, 'partner')).toEqual([])
      expect(read(m, 'direct')).toEqual([])
      expect(read(m, 'broker')).toEqual(['SL-INV-002'])
      // after a write, a wrong value is a new breach even if it was reported before
      judge(
        m,
        { op: 'sales.quote.update', params: { policyId: 'q1' }, json: { policy: { salesChannel: 'direct' } } },
        200,
        {},
      )
      judge(m, { op: 'sales.quote.actions', params: { id: 'q1' } }, 200, { data: ['quote:update', 'quote:calculate'] })
      expect(read(m, 'partner')).toEqual(['SL-INV-002'])
    },
  )

  it("another tenant's write that succeeded: the next read of the owner is not judged, the one after it is", () => {
    const m = created()
    expect(
      judge(
        m,
        {
          op: 'sales.quote.update',
          params: { policyId: 'q1' },
          json: { policy: { salesChannel: 'partner' } },
          tenant: 'globex',
          actor: 'globex/broker',
        },
        200,
        {},
      ),
    ).toEqual([])
    judge(m, { op: 'sales.quote.actions', params: { id: 'q1' } }, 200, { data: ['quote:update', 'quote:calculate'] })
    expect(read(m, 'partner')).toEqual([])
    expect(read(m, 'direct')).toEqual(['SL-INV-002'])
  })

  it(
    'a declined quote whose actions still offer changes breaks SL-INV-005 once per list, again when the list ' +
      'changes',
    () => {
      const m = created()
      judge(m, { op: 'sales.quote.decline', params: { policyId: 'q1' }, actionsBefore: undefined }, 200, {})
      const actions = (list: string[]) =>
        judge(m, { op: 'sales.quote.actions', params: { id: 'q1' } }, 200, { data: list })
      expect(actions(['quote:update'])).toEqual(['SL-INV-005'])
      expect(actions(['quote:update'])).toEqual([])
      // a list that changes with no change in between breaks SL-INV-010 as well
      expect(actions(['quote:update', 'quote:bind'])).toEqual(['SL-INV-010', 'SL-INV-005'])
      expect(actions([])).toEqual(['SL-INV-010'])
    },
  )

  it('SL-INV-010: the list answered after a change holds until the next change; a refused write is no change', () => {
    const m = created()
    const actions = (list: string[]) =>
      judge(m, { op: 'sales.quote.actions', params: { id: 'q1' } }, 200, { data: list })
    expect(actions(['quote:calculate', 'quote:update'])).toEqual([])
    // an empty list answered while locked, then the real one: broken once
    judge(m, { op: 'sales.quote.calculate', params: { id: 'q1' } }, 200, {})
    expect(actions([])).toEqual([])
    expect(actions(['quote:bind'])).toEqual(['SL-INV-010'])
    expect(actions(['quote:bind'])).toEqual([])
    // a refused write changes nothing: the list must hold
    judge(m, { op: 'sales.quote.calculate', params: { id: 'q1' } }, 200, {})
    expect(actions(['quote:bind', 'quote:update'])).toEqual([])
    judge(m, { op: 'sales.quote.issue', params: { id: 'q1' } }, 409, {})
    expect(actions(['quote:update', 'quote:bind'])).toEqual([])
    expect(actions(['quote:issue'])).toEqual(['SL-INV-010'])
    // an accepted write, or a request read (an issue progressing), starts afresh
    judge(
      m,
      { op: 'sales.quote.update', params: { policyId: 'q1' }, json: { policy: { salesChannel: 'direct' } } },
      200,
      {},
    )
    expect(actions(['quote:update'])).toEqual([])
    judge(m, { op: 'sales.quote.issue', params: { id: 'q1' } }, 202, { requestId: 'r1' })
    expect(actions(['quote:calculate'])).toEqual([])
    judge(m, { op: 'sales.requests.get', params: { requestId: 'r1' } }, 200, { status: 'pending' })
    expect(actions([])).toEqual([])
  })

  it('a terminal request status that changes breaks SL-INV-001 once per change', () => {
    const m = created()
    judge(m, { op: 'sales.quote.issue', params: { id: 'q1' } }, 202, { requestId: 'r1' })
    const status = (s: string) =>
      judge(m, { op: 'sales.requests.get', params: { requestId: 'r1' } }, 200, { status: s, data: { policyId: 'p1' } })
    expect(status('success')).toEqual([])
    expect(status('pending')).toEqual(['SL-INV-001'])
    expect(status('pending')).toEqual([])
  })
})

describe("what is inside a quote's document (SL-INV-040, SL-INV-041, issue 42)", () => {
  const doc = (m: SalesModel, opened: HttpResult['document'], id = 'd1') => {
    const evaluated = new Set<InvariantId>()
    const out: Violation[] = []
    const res = {
      ...answer(200, undefined, 'http://target.test/x', { 'content-location': `/documents/${id}` }),
      contentType: 'application/pdf',
      ...(opened ? { document: opened } : {}),
    }
    m.begin('sales.documents.generate', { id: 'q1' })
    m.observe({ op: 'sales.documents.generate', params: { id: 'q1' }, overlapped: false, ...ACME }, res, evaluated, out)
    return { evaluated: [...evaluated].sort(), ids: out.map((v) => v.invariant), out }
  }
  const pdf = (text: string, problems: string[] = []) => ({
    mediaType: 'application/pdf',
    judged: true,
    parser: 'p',
    pages: 1,
    text,
    problems,
  })

  it('a well-formed PDF naming its quote breaks nothing; both rules are evaluated', () => {
    expect(doc(created(), pdf('Quote q1 (home)'))).toMatchObject({ evaluated: ['SL-INV-040', 'SL-INV-041'], ids: [] })
  })

  it('a file cut short breaks SL-INV-040 with the problems the parser named', () => {
    const r = doc(created(), pdf('Quote q1', ['it does not end with %%EOF (the file is cut short)']))
    expect(r.ids).toEqual(['SL-INV-040'])
    expect(r.out[0]!.actual).toContain('cut short')
  })

  it('a document that names another quote breaks SL-INV-041, naming it', () => {
    const m = created()
    judge(m, { op: 'sales.quote.create', json: { schema: { name: 'home' } } }, 201, { policy: { id: 'q2' } })
    const r = doc(m, pdf('Quote q2 (home)'))
    expect(r.ids).toEqual(['SL-INV-041'])
    expect(r.out[0]!.actual).toMatch(/names quote q2 instead/)
  })

  it('an unjudged kind and the profile documentSubject none evaluate nothing of the text', () => {
    expect(doc(created(), { mediaType: 'application/zip', judged: false, problems: [] }).evaluated).toEqual([])
    const m = new SalesModel({ ...SALES_DEFAULTS, documentSubject: 'none' }, STATUSES, {
      policyIssued: () => undefined,
      mtaIssued: () => undefined,
    })
    judge(m, { op: 'sales.quote.create', json: { schema: { name: 'home' } } }, 201, { policy: { id: 'q1' } })
    expect(doc(m, pdf('no id here')).ids).toEqual([])
  })

  it('an id is named as a whole word only', () => {
    expect(namesToken('Quote 100123 (home)', '100123')).toBe(true)
    expect(namesToken('Premium 5100123.00', '100123')).toBe(false)
    expect(namesToken('ref A-100123', '100123')).toBe(false)
  })
})
