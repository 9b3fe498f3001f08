import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NewIds } from '../../../helpers/oracle/new-ids'
import { AnswerModel } from '../../../helpers/oracle/answer-model'
import { tempDir } from '../../support/temp-dir'

describe('NewIds: the ids a target answered as new in the run', () => {
  it('without a file, this instance only', () => {
    const a = new NewIds()
    a.add('|event|7')
    expect(a.has('|event|7')).toBe(true)
    expect(a.has('|payment|7')).toBe(false)
    expect(new NewIds().has('|event|7')).toBe(false)
  })

  it('with a file, what another worker was given too; a line not yet whole is read the next time', () => {
    const file = join(tempDir('new-ids'), 'ids')
    const a = new NewIds(file)
    const b = new NewIds(file)
    a.add('acme|event|100024')
    expect(b.has('acme|event|100024')).toBe(true)
    expect(b.has('globex|event|100024')).toBe(false)
    appendFileSync(file, 'acme|event|1000')
    expect(b.has('acme|event|1000')).toBe(false)
    appendFileSync(file, '31\n')
    expect(b.has('acme|event|100031')).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('acme|event|100024\nacme|event|100031\n')
  })

  it('shared by two models (two suite files): an event id the first was answered as new, the second is refused', () => {
    const ids = new NewIds()
    const first = new AnswerModel({ dayCount: 'expiry-inclusive', shortRateBase: 'return', newIds: ids })
    const second = new AnswerModel({ dayCount: 'expiry-inclusive', shortRateBase: 'return', newIds: ids })
    const v1: unknown[] = []
    const v2: unknown[] = []
    first.observe(
      { op: 'sales.termination.terminate', params: { policyId: '1' }, json: {}, overlapped: false },
      { status: 200, body: { event_id: 100024 } } as never,
      new Set(),
      v1 as never,
    )
    second.observe(
      { op: 'sales.termination.terminate', params: { policyId: '2' }, json: {}, overlapped: false },
      { status: 200, body: { event_id: 100024 } } as never,
      new Set(),
      v2 as never,
    )
    expect(v1).toEqual([])
    expect(JSON.stringify(v2)).toMatch(/PL-INV-021.*an id the run was given before/)
  })
})
