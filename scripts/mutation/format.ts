import { distributionLine } from './distribution'
import { isCaught } from './score'
import type { DefectResult, FailedCheck, MutationReport, VariationResult } from './types'

const VERDICT_LABEL: Record<string, string> = {
  caught: 'caught',
  stopped: 'caught (stopped in preflight)',
  missed: 'MISSED',
  error: 'ERROR',
  undetectable: 'undetectable (excluded)',
  green: 'green',
  'false-alarm': 'FALSE ALARM',
}

export function seconds(ms: number | undefined): string {
  return ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`
}

export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`
}

/** The failed check ids, the first `max` and a count of the rest. */
export function checkList(failed: readonly FailedCheck[], max = 4): string {
  if (failed.length === 0) return '-'
  const ids = failed.slice(0, max).map((f) => f.id)
  return failed.length > max ? `${ids.join(', ')} +${failed.length - max}` : ids.join(', ')
}

function defectEvidence(d: DefectResult, max: number): string {
  if (d.verdict === 'undetectable') return d.undetectable ?? ''
  if (d.verdict === 'stopped' || (d.verdict === 'error' && d.stopMessage)) return d.stopMessage ?? ''
  return checkList(d.newFailures, max)
}

/** A plain-text table with columns padded to their widest cell. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

function mdCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

export function markdownTable(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
  ].join('\n')
}

const DEFECT_HEADER = [
  'defect',
  'spec clause',
  'verdict',
  'run time',
  'first failure',
  'clause cited',
  'failed checks (new)',
  'blocked',
]
const VARIATION_HEADER = ['variation', 'verdict', 'checks run', 'run time', 'failed checks']

function defectRow(d: DefectResult, maxChecks: number): string[] {
  return [
    d.name,
    d.clause,
    VERDICT_LABEL[d.verdict] ?? d.verdict,
    seconds(d.wallMs),
    seconds(d.firstFailureMs),
    isCaught(d) && d.verdict === 'caught' ? (d.clauseMatched ? 'yes' : 'no') : '-',
    defectEvidence(d, maxChecks),
    String(d.blocked?.length ?? 0),
  ]
}

function variationRow(v: VariationResult): string[] {
  return [
    v.name,
    VERDICT_LABEL[v.verdict] ?? v.verdict,
    String(v.checksRun),
    seconds(v.wallMs),
    v.stopMessage ?? checkList(v.failed),
  ]
}

export function headline(r: MutationReport): string {
  const s = r.score
  return [
    `mutation score ${percent(s.ratio)} (${s.caught}/${s.scored} caught${
      s.undetectable ? `, ${s.undetectable} undetectable excluded` : ''
    }; bar ${percent(r.bar)})`,
    `false alarms ${r.falseAlarms} over ${r.variations.length} benign variation(s) (bar 0); faithful ` +
      `reference: ${VERDICT_LABEL[r.baseline.verdict]} (${r.baseline.checksRun} checks)`,
    ...(r.distribution ? [distributionLine(r.distribution)] : []),
    ...(r.controlFailures
      ? [
          `batch controls (faithful references) failed: ${r.controlFailures.join(', ')}: not counted as any defect's ` +
            `finding; the harness fails`,
        ]
      : []),
    `wall time ${seconds(r.wallMs)} with ${r.parallel} run(s) in parallel${
      (r.batch ?? 1) > 1 ? `, up to ${r.batch} defects or variations per run` : ''
    }; defect runs: ${r.scope === 'area' ? "the defect's area suites" : 'the whole suite'}`,
    `verdict ${r.passed ? 'PASS' : 'FAIL'}`,
  ].join('\n')
}

/** The console report: both tables and the headline. */
export function consoleReport(r: MutationReport): string {
  return [
    'Defects (one run of the suite per defect):',
    textTable(
      DEFECT_HEADER,
      r.defects.map((d) => defectRow(d, 4)),
    ),
    '',
    'Benign variations (the suite must stay green):',
    textTable(VARIATION_HEADER, [variationRow(r.baseline), ...r.variations.map(variationRow)]),
    '',
    headline(r),
  ].join('\n')
}

/** reports/mutation.md: the same, as markdown, with the broken runs' console tails. */
export function markdownReport(r: MutationReport): string {
  const broken = [
    ...r.defects.filter((d) => d.verdict === 'error' || d.verdict === 'missed'),
    ...[r.baseline, ...r.variations].filter((v) => v.verdict !== 'green'),
  ]
  const out = [
    '# Mutation report',
    '',
    `Run ${r.startedAt}. ${headline(r).split('\n').join('  \n')}`,
    '',
    '## Defects',
    '',
    markdownTable(
      DEFECT_HEADER,
      r.defects.map((d) => defectRow(d, 6)),
    ),
    '',
    '## Benign variations',
    '',
    markdownTable(VARIATION_HEADER, [variationRow(r.baseline), ...r.variations.map(variationRow)]),
  ]
  if (broken.length > 0) {
    out.push('', '## Runs to look at', '')
    for (const b of broken) {
      const tail = 'outputTail' in b && b.outputTail ? b.outputTail : ''
      const failed = 'failed' in b ? b.failed : []
      out.push(`### ${b.name}: ${VERDICT_LABEL[b.verdict]}`, '')
      for (const f of failed.slice(0, 10))
        out.push(
          `- \`${f.id}\` (${f.document} ${f.section})${
            f.error ? `\n\n  \`\`\`\n  ${f.error.split('\n').slice(0, 8).join('\n  ')}\n  \`\`\`` : ''
          }`,
        )
      if (failed.length === 0) out.push(tail ? `\`\`\`\n${tail}\n\`\`\`` : '(the run passed: no check failed)')
      out.push('')
    }
  }
  return `${out.join('\n')}\n`
}

export const LATEST_MARKER = '<!-- latest-results -->'

/** The summary that goes into docs/mutation.md: headline and both tables, without console tails. */
export function docsSection(r: MutationReport): string {
  return [
    `Run ${r.startedAt.slice(0, 16).replace('T', ' ')} UTC on the 2-core machine. ${headline(r)
      .split('\n')
      .join('  \n')}`,
    '',
    markdownTable(
      DEFECT_HEADER,
      r.defects.map((d) => defectRow(d, 3)),
    ),
    '',
    markdownTable(VARIATION_HEADER, [variationRow(r.baseline), ...r.variations.map(variationRow)]),
  ].join('\n')
}

/** Replaces everything after the marker with the section; throws when the document has no marker. */
export function withLatestResults(doc: string, section: string): string {
  const i = doc.indexOf(LATEST_MARKER)
  if (i < 0) throw new Error(`no ${LATEST_MARKER} marker in the document`)
  return `${doc.slice(0, i + LATEST_MARKER.length)}\n${section}\n`
}
