/** The field-sensitivity report: console table, markdown and JSON files (reports/mutation/field-sensitivity.*). */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { markdownTable, percent, seconds, textTable } from '../format'
import { isCaughtOutcome } from './sensitivity'
import type { FieldResult, FieldSensitivityReport, Sensitivity } from './types'

/** One line of figures: `13/40 caught (32.5%); missed 20, inconclusive 3, ...`. */
export function sensitivityLine(s: Sensitivity): string {
  const parts = [
    `missed ${s.missed}`,
    `inconclusive ${s.inconclusive}`,
    `error ${s.error}`,
    `not exercised ${s.notExercised}`,
    `free ${s.free}`,
    `false alarms on free fields ${s.freeCaught}`,
  ]
  return `${s.caught}/${s.scored} caught (${s.scored === 0 ? '-' : percent(s.ratio)}); ${parts.join(', ')}`
}

function selectionLine(r: FieldSensitivityReport): string {
  const sel =
    r.selection.mode === 'all'
      ? `the whole map (${r.results.length} fields)`
      : `a sample of ${r.selection.size} of ${r.selection.of} non-free fields (stratified by operation, ` +
        `seed ${r.selection.seed})`
  return `field sensitivity over ${sel}; map of the clean run: ${r.record.entries} fields of ${r.record.operations} operations (record ${seconds(r.record.wallMs)}, ${r.record.checksRun} checks, ${r.record.failed.length} failed); ${r.quick === false ? 'every field on all its files' : 'quick pass first'}; batch ${r.batch}, parallel ${r.parallel}; wall time ${seconds(r.wallMs)}`
}

/** The headline: selection, the four figures, the free fields' source, pass or fail. */
export function fieldHeadline(r: FieldSensitivityReport): string {
  return [
    selectionLine(r),
    `overall        ${sensitivityLine(r.overall)}`,
    `writes         ${sensitivityLine(r.writes)}`,
    `reads          ${sensitivityLine(r.reads)}`,
    `notifications  ${sensitivityLine(r.notifications)}`,
    `free fields: ${r.freeSource}`,
    ...(r.controlFailures.length > 0
      ? [`batch controls (faithful reference) failed: ${r.controlFailures.join(', ')} (the harness fails)`]
      : []),
    ...(r.record.failed.length > 0 ? [`the clean run failed: ${r.record.failed.join(', ')} (the harness fails)`] : []),
    ...(r.bar !== undefined
      ? [`bar: ${percent(r.bar)} of the non-free fields, and every field of a write's answer`]
      : []),
    `field sensitivity: ${r.passed ? 'PASSED' : 'FAILED'}${
      r.allCaught
        ? ''
        : r.passed
          ? r.bar !== undefined
            ? ' (within the bar: the misses are listed above)'
            : ' (no --bar and no --fail-on-miss: the misses are listed above, none fails the run)'
          : r.bar !== undefined
            ? ' (below the bar, or a field of a write missed)'
            : ' (not every non-free field was caught)'
    }`,
  ].join('\n')
}

const OP_HEADER = [
  'operation',
  'fields',
  'free',
  'scored',
  'caught',
  'missed',
  'inconcl.',
  'not exercised',
  'sensitivity',
]

function opRows(r: FieldSensitivityReport): string[][] {
  return r.perOperation.map((o) => [
    o.operation,
    String(o.fields),
    String(o.free),
    String(o.scored),
    String(o.caught),
    String(o.missed),
    String(o.inconclusive),
    String(o.notExercised),
    o.scored === 0 ? '-' : percent(o.ratio),
  ])
}

/** The fields not caught (missed, inconclusive, error, not exercised) and the free fields that were (false alarms). */
export function notCaught(r: FieldSensitivityReport): FieldResult[] {
  return r.results.filter((x) => (x.free ? isCaughtOutcome(x.outcome) : !isCaughtOutcome(x.outcome)))
}

const MISS_HEADER = ['operation', 'status', 'path', 'perturbation', 'outcome', 'exchange', 'before -> after']

function missRow(x: FieldResult): string[] {
  const outcome = x.free
    ? `FALSE ALARM (free): ${x.newFailures.map((f) => f.id).join(', ')}`
    : x.outcome +
      (x.newOther?.length ? `: ${x.newOther.slice(0, 3).join(', ')}` : '') +
      (x.stopMessage ? `: ${x.stopMessage.slice(0, 120)}` : '')
  return [
    x.operation,
    String(x.status),
    x.path,
    x.kind,
    outcome,
    x.example?.exchange ?? '-',
    x.example ? `${x.example.before} -> ${x.example.after}` : '-',
  ]
}

export function fieldConsoleReport(r: FieldSensitivityReport): string {
  const misses = notCaught(r)
  return [
    textTable(OP_HEADER, opRows(r)),
    '',
    `not caught (${misses.length}):`,
    misses.length > 0 ? textTable(MISS_HEADER, misses.map(missRow)) : '(none)',
    '',
    fieldHeadline(r),
  ].join('\n')
}

export function fieldMarkdownReport(r: FieldSensitivityReport): string {
  const misses = notCaught(r)
  const caught = r.results.filter((x) => !x.free && isCaughtOutcome(x.outcome))
  return [
    '# Field sensitivity',
    '',
    `Run ${r.startedAt}. ${fieldHeadline(r).split('\n').join('  \n')}`,
    '',
    '## Per operation',
    '',
    markdownTable(OP_HEADER, opRows(r)),
    '',
    `## Not caught (${misses.length})`,
    '',
    misses.length > 0 ? markdownTable(MISS_HEADER, misses.map(missRow)) : '(none)',
    '',
    `## Caught (${caught.length})`,
    '',
    caught.length > 0
      ? markdownTable(
          ['operation', 'status', 'path', 'perturbation', 'caught by'],
          caught.map((x) => [
            x.operation,
            String(x.status),
            x.path,
            x.kind,
            x.outcome === 'stopped'
              ? `preflight: ${x.stopMessage ?? ''}`
              : x.newFailures
                  .map((f) => f.id)
                  .slice(0, 5)
                  .join(', ') + (x.newFailures.length > 5 ? ` +${x.newFailures.length - 5}` : ''),
          ]),
        )
      : '(none)',
    '',
  ].join('\n')
}

/**
 * Writes field-sensitivity.json (the report without the map), field-sensitivity.md and field-map.json (the clean run's
 * map, one entry a line: operation, status, path, kind, class, values seen, files) into dir (reports/mutation by
 * default); returns their paths.
 */
export function writeFieldReport(r: FieldSensitivityReport, dir: string): { json: string; md: string; map: string } {
  mkdirSync(dir, { recursive: true })
  const json = join(dir, 'field-sensitivity.json')
  const md = join(dir, 'field-sensitivity.md')
  const map = join(dir, 'field-map.json')
  const { map: entries, ...rest } = r
  writeFileSync(json, `${JSON.stringify(rest, null, 2)}\n`)
  writeFileSync(md, fieldMarkdownReport(r))
  writeFileSync(
    map,
    `[\n${entries.map((e) => JSON.stringify({ operation: e.operation, status: e.status, path: e.path, kind: e.kind, class: e.class, seen: e.seen, files: e.files })).join(',\n')}\n]\n`,
  )
  return { json, md, map }
}
