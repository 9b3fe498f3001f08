import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import type { Exchange, ExchangeSink } from './recorder'
import { safeText } from '../evidence/neutralise'

/** Summary line of an exchange, as kept in reports/traffic/*.jsonl (no bodies, no headers). */
export interface TrafficLine {
  at: string
  runId: string
  test?: string
  /**
   * The dependent chain of the check that sent it (helpers/client/http/running-check.ts; the bench's longest chain).
   */
  chain?: string
  operationId?: string
  method: string
  template: string
  status?: number
  durationMs: number
  attempt?: number
  /** Milliseconds it waited for a slot at the request limiter before it was sent (the bench's chains leave it out). */
  queuedMs?: number
  error?: string
  /** Validated against the target's published documents (profile `openapi`). */
  contract?: 'validated' | 'not-described'
}

export type TrafficFileSink = ExchangeSink & { close(): void }

/**
 * Appends one JSON line per exchange to <dir>/<pid>.jsonl: the measured traffic of the run. The file is opened
 * once (append mode: lines from several workers never interleave) and closed by close().
 */
export function trafficFileSink(dir: string): TrafficFileSink {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${process.pid}.jsonl`)
  let fd: number | undefined
  const sink = (x: Exchange) => {
    const line: TrafficLine = {
      at: x.at,
      runId: x.runId,
      ...(x.test ? { test: x.test } : {}),
      ...(x.chain ? { chain: x.chain } : {}),
      ...(x.operationId ? { operationId: x.operationId } : {}),
      method: x.method,
      template: x.template,
      ...(x.status !== undefined ? { status: x.status } : {}),
      durationMs: x.durationMs,
      ...(x.attempt !== undefined ? { attempt: x.attempt } : {}),
      ...(x.queuedMs !== undefined ? { queuedMs: x.queuedMs } : {}),
      ...(x.error ? { error: safeText(x.error) } : {}),
      ...(x.contract ? { contract: x.contract } : {}),
    }
    fd ??= openSync(file, 'a')
    writeSync(fd, `${JSON.stringify(line)}\n`)
  }
  return Object.assign(sink, {
    close() {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
  })
}
