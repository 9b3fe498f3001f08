import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Exchange } from '../../../../helpers/client/http/recorder'
import { trafficFileSink } from '../../../../helpers/client/http/traffic-file'
import { tempDir } from '../../../support/temp-dir'

const exchange = (n: number, extra: Partial<Exchange> = {}): Exchange =>
  ({
    at: `2026-11-22T10:00:0${n}.000Z`,
    runId: 'r1',
    method: 'GET',
    template: '/x/{id}',
    url: 'http://h/x/1',
    status: 200,
    durationMs: n,
    request: { headers: {} },
    ...extra,
  }) as unknown as Exchange

describe('trafficFileSink', () => {
  it('appends one summary line per exchange (no bodies, no headers) to <dir>/<pid>.jsonl', () => {
    const dir = join(tempDir('traffic'), 'traffic')
    const a = trafficFileSink(dir)
    const b = trafficFileSink(dir)
    void a(exchange(1, { test: 'acme > t1', operationId: 'op.a' }))
    void b(exchange(2, { attempt: 2, error: 'ECONNRESET' }))
    void a(exchange(3))
    a.close()
    b.close()
    expect(readdirSync(dir)).toEqual([`${process.pid}.jsonl`])
    const lines = readFileSync(join(dir, `${process.pid}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.map((l) => l.durationMs)).toEqual([1, 2, 3])
    expect(lines[0]).toEqual({
      at: '2026-11-22T10:00:01.000Z',
      runId: 'r1',
      test: 'acme > t1',
      operationId: 'op.a',
      method: 'GET',
      template: '/x/{id}',
      status: 200,
      durationMs: 1,
    })
    expect(lines[1]).toMatchObject({ attempt: 2, error: 'ECONNRESET' })
    expect(JSON.stringify(lines)).not.toContain('http://h/x/1')
  })

  it('a sink used after close() opens the file again instead of losing the line', () => {
    const dir = join(tempDir('traffic'), 'traffic')
    const s = trafficFileSink(dir)
    void s(exchange(1))
    s.close()
    void s(exchange(2))
    s.close()
    expect(
      readFileSync(join(dir, `${process.pid}.jsonl`), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(2)
  })
})
