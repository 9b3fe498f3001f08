/**
 * The map of a clean run: every (operation, status, JSON path) the reference answered (and every path of its
 * notifications), and which suite files exercise each operation (from the run's traffic files).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { OPERATIONS } from '../../../common/operations'
import { perturbationKind, visitLeaves, type PerturbationKind } from '../../../reference/variations/field-paths'
import { NOTIFICATION_OPERATION, type FieldProbe, type FieldSite } from '../../../reference/variations/field-probe'
import type { FieldClass, FieldEntry, FieldKey } from './types'

/** The control route through which the suite has the reference emit an event (reference/webhooks/routes.ts). */
export const EMIT_TEMPLATE = '/__reference/webhooks/emit'

export function fieldKey(k: FieldKey): string {
  return `${k.operation} ${k.status} ${k.path}`
}

/** Entries sorted by operation, then status (numbers first), then path: the map's fixed order. */
export function compareKeys(a: FieldKey, b: FieldKey): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1
  if (a.status !== b.status) return String(a.status).localeCompare(String(b.status), 'en', { numeric: true })
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export function fieldClass(operation: string): FieldClass {
  if (operation === NOTIFICATION_OPERATION) return 'notification'
  const op = OPERATIONS.find((o) => o.id === operation)
  return op && WRITES.has(op.method) ? 'write' : 'read'
}

interface Seen {
  key: FieldKey
  seen: number
  kind?: PerturbationKind
}

/** A field probe that changes nothing and records every leaf path of every body it sees. */
export class FieldRecorder implements FieldProbe {
  private readonly seen = new Map<string, Seen>()

  body(site: FieldSite, body: unknown): unknown {
    visitLeaves(body, (path, leaf) => {
      const key: FieldKey = { operation: site.operation, status: site.status, path }
      const id = fieldKey(key)
      const s = this.seen.get(id) ?? { key, seen: 0 }
      s.seen += 1
      const kind = perturbationKind(path, leaf)
      if (s.kind === undefined || (s.kind === 'drop' && kind !== 'drop')) s.kind = kind
      this.seen.set(id, s)
    })
    return body
  }

  /** The map, sorted, with the files of each entry (`filesOf`). */
  entries(filesOf: (k: FieldKey) => string[]): FieldEntry[] {
    return [...this.seen.values()]
      .map((s) => ({
        ...s.key,
        key: fieldKey(s.key),
        kind: s.kind ?? 'drop',
        class: fieldClass(s.key.operation),
        seen: s.seen,
        files: filesOf(s.key),
      }))
      .sort(compareKeys)
  }
}

/** One line of reports/traffic/*.jsonl, as far as the map needs it. */
export interface TrafficRecord {
  test?: string
  operationId?: string
  template?: string
  status?: number
}

/** The suite file a traffic line's test name names ("<target> > suites/x/y.test.ts > block > check"). */
export function fileOfTest(test: string | undefined): string | undefined {
  return test?.split(' > ').find((part) => /^suites\/.+\.test\.ts$/.test(part))
}

/** Reads every traffic line of a run's reports folder. */
export function readTraffic(reportsDir: string): TrafficRecord[] {
  const dir = join(reportsDir, 'traffic')
  if (!existsSync(dir)) return []
  const out: TrafficRecord[] = []
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!line.trim()) continue
      try {
        out.push(JSON.parse(line) as TrafficRecord)
      } catch {
        // a line cut short when the run was killed
      }
    }
  }
  return out
}

/**
 * Which files exercise each field's operation, from the clean run's traffic: the files that received an answer of that
 * operation with that status; else of that operation with any status; a notification: the files that had an event
 * emitted. An entry whose operation no traffic line names gets [] (run against the whole suite).
 */
export function filesByOperation(traffic: readonly TrafficRecord[]): (k: FieldKey) => string[] {
  const byStatus = new Map<string, Set<string>>()
  const byOp = new Map<string, Set<string>>()
  const add = (m: Map<string, Set<string>>, key: string, file: string) =>
    m.set(key, (m.get(key) ?? new Set()).add(file))
  for (const t of traffic) {
    const file = fileOfTest(t.test)
    if (!file) continue
    const op = t.operationId ?? (t.template === EMIT_TEMPLATE ? NOTIFICATION_OPERATION : undefined)
    if (!op) continue
    add(byOp, op, file)
    if (t.status !== undefined) add(byStatus, `${op} ${t.status}`, file)
  }
  return (k) => {
    const files =
      (k.operation === NOTIFICATION_OPERATION ? undefined : byStatus.get(`${k.operation} ${k.status}`)) ??
      byOp.get(k.operation)
    return files ? [...files].sort() : []
  }
}
