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

const REQUIREMENT_LABEL: Record<ConformanceMatrix['requirements'][number]['status'], string> = {
  covered: 'covered',
  partial: 'partially covered',
  untested: 'UNTESTED',
  'not-applicable': 'not applicable to the tenant',
}

/** "40 covered, 2 partially, 3 untested, 1 not applicable to the tenant" (the counts the Markdown matrix gives). */
function requirementCounts(m: ConformanceMatrix): string {
  const n = (s: string) => m.requirements.filter((r) => r.status === s).length
  return `<span id="req-covered">${n('covered')}</span> covered, <span id="req-partial">${n('partial')}</span> partially, <span id="req-untested">${n('untested')}</span> untested${n('not-applicable') > 0 ? `, ${n('not-applicable')} not applicable to the tenant` : ''}`
}

/** The requirements not fully covered, with what did not judge them (the profile field that would enable them). */
function requirementsTable(m: ConformanceMatrix): string {
  const notFully = m.requirements.filter((r) => r.status !== 'covered')
  if (notFully.length === 0) return ''
  const rows = notFully
    .map((r) => `<tr data-requirement="${esc(r.id)}" data-coverage="${esc(r.status)}"><td>${esc(REQUIREMENT_LABEL[r.status])}</td><td><code>${esc(r.id)}</code></td><td>${esc(`${r.document} ${r.section}`)}</td><td>${esc(r.paraphrase)}</td><td class="n">${r.judged} / ${r.checks}</td><td>${esc(r.enable.join('; '))}</td></tr>`)
    .join('\n')
  return `<h2>Requirements not fully covered (${notFully.length})</h2>
<table id="requirements-not-covered"><thead><tr><th>coverage</th><th>requirement</th><th>clause</th><th>what it asks</th><th>checks that judged it / all</th><th>why not (what would enable it)</th></tr></thead>
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
${m.notes.map((n) => `<dt>note</dt><dd class="note">${esc(n)}</dd>`).join('\n')}
${m.requirements.length > 0 ? `<dt>requirements</dt><dd id="requirements">${requirementCounts(m)} (fixtures/requirements.json)</dd>\n` : ''}<dt>operations</dt><dd id="operations">${m.rows.length}: ${b.passed} passed, ${b.failed} failed, ${b['not-applicable']} not applicable, ${b['auth-only']} reached only with rejected credentials, ${b['exercised-without-check']} called without a check, ${b['never-exercised']} never exercised (measured from traffic)</dd>${m.contractValidated > 0 ? `
<dt>published contracts</dt><dd id="contracts">${m.contractValidated} exchanges validated against the profile's OpenAPI documents, ${m.contractFindings.length} finding(s)</dd>` : ''}
</dl>
${requirementsTable(m)}<table><thead><tr><th>operation</th><th>method and path</th><th>outcome</th><th>checks</th><th>calls past auth / all</th><th>statuses</th><th>check ids</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${m.contractFindings.length > 0 ? `<h2>Published-contract findings (${m.contractFindings.length})</h2>
<table id="contract-findings"><thead><tr><th>operation</th><th>check</th><th>policy</th><th>finding (with the document's pointer)</th></tr></thead>
<tbody>
${m.contractFindings.map((f) => `<tr data-operation="${esc(f.operationId)}"><td><code>${esc(f.operationId)}</code></td><td>${esc(f.check)}</td><td>${esc(f.policy)}</td><td>${esc(f.message)}</td></tr>`).join('\n')}
</tbody></table>` : ''}
</body></html>
`
}
