import { describe, expect, it } from 'vitest'
import type { HttpResult } from '../../../helpers/client/http/types'
import { judgeFiniteNumbers, nonFiniteNumbers } from '../../../helpers/oracle/finite-numbers'
import type { InvariantId, Violation } from '../../../helpers/oracle/invariants'

const answer = (text: string): HttpResult =>
  ({
    status: 200,
    headers: {},
    body: JSON.parse(text) as unknown,
    raw: Buffer.from(text),
    text,
    contentType: 'application/json',
    durationMs: 1,
  }) as unknown as HttpResult

function judge(service: 'sales' | 'webhooks' | 'identity', text: string) {
  const evaluated = new Set<InvariantId>()
  const out: Violation[] = []
  judgeFiniteNumbers(service, answer(text), evaluated, out)
  return { evaluated: [...evaluated], out }
}

describe('every number the model reads is finite (SL-INV-080, WH-INV-080)', () => {
  it(
    'finds the numbers standard parsers read as Infinity: an exponent beyond a double, 309 digits; not a string ' +
      'that says 1e999',
    () => {
      expect(
        nonFiniteNumbers(
          JSON.parse(`{"a":1e999,"b":[1,-1E+400,${'9'.repeat(309)}],"c":"1e999","d/e":1e308,"f~":2e308}`),
        ),
      ).toEqual(['/a', '/b/1', '/b/2', '/f~0'])
    },
  )

  it('judges every JSON answer, by its service; a finite answer breaks nothing', () => {
    expect(judge('sales', '{"data":{"total":123.45,"tiny":1e-320}}')).toEqual({ evaluated: ['SL-INV-080'], out: [] })
    expect(judge('identity', '{"expires_in":3600}').evaluated).toEqual(['SL-INV-080'])
    expect(judge('webhooks', '[]').evaluated).toEqual(['WH-INV-080'])
  })

  it('a calculation total of 1e999 is a violation naming the place, the literal and what it was read as', () => {
    const { out } = judge('sales', '{"data":{"periodPremium":100,"total":1e999}}')
    expect(out).toHaveLength(1)
    expect(out[0]).toMatchObject({
      invariant: 'SL-INV-080',
      actual: 'not finite: /data/total (1e999 read as Infinity)',
    })
    expect(judge('webhooks', '[{"examplePayload":{"premium":-1e999}}]').out[0]).toMatchObject({
      invariant: 'WH-INV-080',
      actual: 'not finite: /0/examplePayload/premium (-1e999 read as -Infinity)',
    })
  })

  it('an answer that is not JSON is not judged', () => {
    const evaluated = new Set<InvariantId>()
    judgeFiniteNumbers(
      'sales',
      {
        status: 200,
        headers: {},
        body: undefined,
        raw: Buffer.from('1e999'),
        text: '1e999',
        contentType: 'text/plain',
        durationMs: 1,
      } as unknown as HttpResult,
      evaluated,
      [],
    )
    expect([...evaluated]).toEqual([])
  })
})
