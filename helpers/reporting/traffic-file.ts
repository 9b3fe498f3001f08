import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Exchange, ExchangeSink } from '../http/recorder'

/** Summary line of an exchange, as kept in reports/traffic/*.jsonl (no bodies, no headers). */
export interface TrafficLine {
  at: string
  runId: string
  test?: string
  operationId?: string
  method: string
  template: string
  status?: number
  durationMs: number
  attempt?: number
  error?: string
}

/** Appends one JSON line per exchange to <dir>/<pid>.jsonl: the measured traffic of the run. */
export function trafficFileSink(dir: string): ExchangeSink {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${process.pid}.jsonl`)
  return (x: Exchange) => {
    const line: TrafficLine = {
      at: x.at,
      runId: x.runId,
      ...(x.test ? { test: x.test } : {}),
      ...(x.operationId ? { operationId: x.operationId } : {}),
      method: x.method,
      template: x.template,
      ...(x.status !== undefined ? { status: x.status } : {}),
      durationMs: x.durationMs,
      ...(x.attempt !== undefined ? { attempt: x.attempt } : {}),
      ...(x.error ? { error: x.error } : {}),
    }
    appendFileSync(file, `${JSON.stringify(line)}\n`)
  }
}
