import { safeHtml } from '../../helpers/reporting/neutralise'
import { checkCounts, OUTCOME_LABEL, statusList, type ConformanceMatrix, type OperationOutcome } from './matrix'

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

const COLOR: Record<OperationOutcome, string> = {
  failed: '#c62828',
  passed: '#2e7d32',
  'not-applicable': '#757575',
  'auth-only': '#5c6bc0',
  'exercised-without-check': '#ef6c00',
  'never-exercised': '#9e9e9e',
}

/**
 * The documents' authoring errors (docs/contracts.md "Document warnings"), as the Markdown matrix lists them: each
 * with its document and JSON pointer. Their text comes from the target's documents: it passes the one rule (safeHtml).
 */
function documentWarningsSection(m: ConformanceMatrix): string {
  const warnings = m.run?.documentWarnings ?? []
  if (warnings.length === 0) return ''
  const rows = warnings.map((w) => `<tr><td>${safeHtml(w.source)}</td><td><code>${safeHtml(w.pointer)}</code></td><td>${safeHtml(w.message)}</td></tr>`).join('\n')
  return `<h2>Document warnings (${warnings.length})</h2>
<p>Authoring errors of the profile's OpenAPI documents: the part is validated as far as it can be, and they never fail a run (docs/contracts.md).</p>
<table id="document-warnings"><thead><tr><th>document</th><th>pointer</th><th>warning</th></tr></thead>
<tbody>
${rows}
</tbody></table>
`
}

/** reports/conformance.html: the matrix as one self-contained page (no script, no external resource). */
export function matrixHtml(m: ConformanceMatrix): string {
  const t = m.totals
  const run = m.run
  const rows = m.rows
    .map((r) => {
      const checks = r.checks
        .map((c) => `<span class="c ${c.status === 'failed' && !c.failedHere ? 'failed-elsewhere' : c.status}" title="${esc(`${c.section}: ${c.requirement}${c.status === 'failed' && !c.failedHere ? ' (failed; its requirement is about another operation)' : ''}`)}">${esc(c.id)}</span>`)
        .join(' ')
      return `<tr data-operation="${esc(r.operationId)}" data-outcome="${r.outcome}"><td><code>${esc(r.operationId)}</code></td><td>${esc(r.method)} <code>${esc(r.path)}</code></td>` +
        `<td><span class="o" style="background:${COLOR[r.outcome]}">${esc(OUTCOME_LABEL[r.outcome])}</span></td><td>${esc(checkCounts(r.checks))}</td>` +
        `<td class="n">${r.calls} / ${r.allCalls}</td><td>${esc(statusList(r.statuses))}</td><td class="ids">${checks || '—'}</td></tr>`
    })
    .join('\n')
  const b = m.byOutcome
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance matrix — ${esc(m.verdict)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#212121}
h1{font-size:1.4rem;margin:0 0 .5rem} .verdict{color:${m.verdict === 'CONFORMS' ? '#2e7d32' : '#c62828'}}
table{border-collapse:collapse;width:100%;margin-top:1rem} th,td{border:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}
th{background:#f5f5f5} td.n{text-align:right} .o{color:#fff;border-radius:3px;padding:1px 6px;white-space:nowrap}
.c{display:inline-block;font:12px monospace;padding:0 3px;margin:1px;border-radius:2px;background:#e8f5e9}
.c.failed{background:#ffcdd2;font-weight:bold} .c.failed-elsewhere{background:#fce4ec} .c.errored{background:#ffe0b2} .c.blocked{background:#fff9c4} .c.skipped,.c.not-applicable{background:#eee;color:#616161}
.ids{max-width:40rem} dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:0} dt{color:#616161}
</style></head><body>
<h1>Conformance matrix — <span class="verdict" id="verdict">${esc(m.verdict)}</span></h1>
<p id="verdict-line"><strong>${esc(m.label)}</strong></p>
<dl>
${run ? `<dt>target</dt><dd>${esc(run.profile)} — ${esc(run.salesBaseUrl)}</dd><dt>tenant</dt><dd>${esc(run.tenant)}</dd><dt>run</dt><dd><code id="run-id">${esc(run.runId)}</code>, seed ${run.seed}, ${esc(run.startedAt)}</dd>${run.defects.length ? `<dt>reference defects</dt><dd>${esc(run.defects.join(', '))}</dd>` : ''}` : ''}
<dt>checks</dt><dd id="totals"><span id="passed">${t.passed}</span> passed, <span id="failed">${t.failed}</span> failed, <span id="errored">${t.errored}</span> errored, <span id="blocked">${t.blocked}</span> blocked, <span id="skipped">${t.skipped}</span> skipped, <span id="not-applicable">${t['not-applicable']}</span> not applicable, ${t.deviations} deviation(s)</dd>
<dt>operations</dt><dd id="operations">${m.rows.length}: ${b.passed} passed, ${b.failed} failed, ${b['not-applicable']} not applicable, ${b['auth-only']} reached only with rejected credentials, ${b['exercised-without-check']} called without a check, ${b['never-exercised']} never exercised (measured from traffic)</dd>${m.contractValidated > 0 ? `
<dt>published contracts</dt><dd id="contracts">${m.contractValidated} exchanges validated against the profile's OpenAPI documents, ${m.contractFindings.length} finding(s)</dd>` : ''}
</dl>
<table><thead><tr><th>operation</th><th>method and path</th><th>outcome</th><th>checks</th><th>calls past auth / all</th><th>statuses</th><th>check ids</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${documentWarningsSection(m)}${m.contractFindings.length > 0 ? `<h2>Published-contract findings (${m.contractFindings.length})</h2>
<table id="contract-findings"><thead><tr><th>operation</th><th>check</th><th>policy</th><th>finding (with the document's pointer)</th></tr></thead>
<tbody>
${m.contractFindings.map((f) => `<tr data-operation="${esc(f.operationId)}"><td><code>${esc(f.operationId)}</code></td><td>${esc(f.check)}</td><td>${esc(f.policy)}</td><td>${esc(f.message)}</td></tr>`).join('\n')}
</tbody></table>` : ''}
</body></html>
`
}
