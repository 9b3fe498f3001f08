import { realWorldLine } from './invariants'
import { safeHtml } from '../../../helpers/client/evidence/neutralise'
import { totalsLine } from './totals-line'
import type { FailureFields } from './failure-fields'
import { renderTimelineHtml } from '../../../helpers/oracle/linearizability/timeline'
import { checkCounts, OUTCOME_LABEL, statusList, type ConformanceMatrix, type OperationOutcome } from './matrix'

/** HTML text or attribute: the one rule (helpers/client/evidence/neutralise.ts). */
const esc = (s: string): string => safeHtml(s)

const COLOR: Record<OperationOutcome, string> = {
  failed: '#c62828',
  passed: '#2e7d32',
  'not-applicable': '#757575',
  'auth-only': '#5c6bc0',
  'exercised-without-check': '#ef6c00',
  'never-exercised': '#9e9e9e',
}

/** How many check chips a row shows before folding the others (the failed ones are always shown). */
const CHIPS_SHOWN = 12

/**
 * The failed requirements, before the table: per failure its id, clause and requirement, expected and actual, the
 * request, and the curl commands that send it again one click away. A page of 400+ checks opens on what broke.
 */
function failuresSection(m: ConformanceMatrix): string {
  if (m.failedChecks.length === 0) return ''
  const item = (c: ConformanceMatrix['failedChecks'][number]) => {
    const f = c.failure
    const row = (label: string, v: string | undefined) =>
      v === undefined ? '' : `<dt>${label}</dt><dd class="${label}">${esc(v)}</dd>`
    const reproduce =
      f && f.reproduce.length > 0
        ? `<details class="reproduce"><summary>Reproduce with curl ` +
          `(${f.reproduce.length})</summary>${f.reproduce.map((x) => `<pre>${esc(x)}</pre>`).join('')}<p>Set the ` +
          `shell variables it names first ($AUTH_TOKEN: a token of the run's user; $AUTH_PASSWORD: its ` +
          `password).</p></details>`
        : ''
    return `<section class="failure" id="f-${esc(c.id)}"><h3><span class="c failed">${esc(c.id)}</span> ${esc(c.section)}</h3><dl>${row('requirement', c.requirement)}${row('expected', f?.expected)}${row('actual', f?.actual)}${row('error', f?.error)}${row('request', f?.request)}${row('response', f?.response)}</dl>${timelines(f?.timeline)}${reproduce}</section>`
  }
  return `<h2 id="failures">Failed requirements (${m.failedChecks.length})</h2>\n${m.failedChecks.map(item).join('\n')}`
}

/** A linearizability finding's timelines, drawn from their data as Porcupine draws one (one lane per caller). */
function timelines(list: FailureFields['timeline']): string {
  if (!list || list.length === 0) return ''
  return `<details class="timelines" open><summary>Timeline (${
    list.length === 1 ? 'the resource no order explains' : `${list.length} resources`
  })</summary>${list.map(renderTimelineHtml).join('')}</details>`
}

/** What the colours and chips mean. */
function legend(): string {
  const chips = [
    ['passed', 'passed'],
    ['failed', 'failed (its requirement is about this operation)'],
    ['failed-elsewhere', 'failed (about another operation)'],
    ['errored', 'errored'],
    ['blocked', 'blocked (its setup failed)'],
    ['not-applicable', 'not applicable or skipped'],
  ]
  const outcomes = (Object.keys(COLOR) as OperationOutcome[]).map(
    (o) => `<span class="o" style="background:${COLOR[o]}">${esc(OUTCOME_LABEL[o])}</span>`,
  )
  return `<p id="legend"><strong>Legend.</strong> Checks: ${chips
    .map(([k, l]) => `<span class="c ${k}">${esc(l!)}</span>`)
    .join(
      ' ',
    )}. Operations: ${outcomes.join(' ')}. Hover a check for its requirement; a failed one links to its failure above.</p>`
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
    .map(
      (r) =>
        `<tr data-requirement="${esc(r.id)}" ` +
        `data-coverage="${esc(r.status)}"><td>${esc(REQUIREMENT_LABEL[r.status])}</td><td><code>${esc(r.id)}</code></td><td>${esc(`${r.document} ${r.section}`)}</td><td>${esc(r.paraphrase)}</td><td class="n">${r.judged} / ${r.checks}</td><td>${esc(r.enable.join('; '))}</td></tr>`,
    )
    .join('\n')
  return `<h2>Requirements not fully covered (${notFully.length})</h2>
<table id="requirements-not-covered"><thead><tr><th>coverage</th><th>requirement</th><th>clause</th><th>what it asks</th><th>checks that judged it / all</th><th>why not (what would enable it)</th></tr></thead>
<tbody>
${rows}
</tbody></table>
`
}

/**
 * The documents' authoring errors (docs/contracts.md "Document warnings"), as the Markdown matrix lists them: each
 * with its document and JSON pointer. Their text comes from the target's documents: it passes the one rule (safeHtml).
 */
function documentWarningsSection(m: ConformanceMatrix): string {
  const warnings = m.run?.documentWarnings ?? []
  if (warnings.length === 0) return ''
  const rows = warnings
    .map(
      (w) =>
        `<tr><td>${safeHtml(w.source)}</td><td><code>${safeHtml(w.pointer)}</code></td><td>${safeHtml(w.message)}</td></tr>`,
    )
    .join('\n')
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
      const chip = (c: (typeof r.checks)[number]) => {
        const span =
          `<span class="c ${c.status === 'failed' && !c.failedHere ? 'failed-elsewhere' : c.status}" ` +
          `title="${esc(
            `${c.section}: ${c.requirement}${
              c.status === 'failed' && !c.failedHere ? ' (failed; its requirement is about another operation)' : ''
            }`,
          )}">${esc(c.id)}</span>`
        return c.status === 'failed' ? `<a href="#f-${esc(c.id)}">${span}</a>` : span
      }
      // the failed checks always shown; the others folded when there are many (a security table row has dozens)
      const shown = r.checks.length > CHIPS_SHOWN ? r.checks.filter((c) => c.status === 'failed') : r.checks
      const folded = r.checks.length > CHIPS_SHOWN ? r.checks.filter((c) => c.status !== 'failed') : []
      const checks =
        shown.map(chip).join(' ') +
        (folded.length
          ? ` <details><summary>${folded.length} more</summary>${folded.map(chip).join(' ')}</details>`
          : '')
      return (
        `<tr data-operation="${esc(r.operationId)}" ` +
        `data-outcome="${r.outcome}"><td><code>${esc(r.operationId)}</code></td><td>${esc(r.method)} ` +
        `<code>${esc(r.path)}</code></td>` +
        `<td><span class="o" ` +
        `style="background:${COLOR[r.outcome]}">${esc(OUTCOME_LABEL[r.outcome])}</span></td><td>${esc(checkCounts(r.checks))}</td>` +
        `<td class="n">${r.calls} / ${r.allCalls}</td><td>${esc(statusList(r.statuses))}</td><td ` +
        `class="ids">${checks || '—'}</td></tr>`
      )
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
.ids{max-width:40rem} .failure{border-left:4px solid #c62828;padding:2px 10px;margin:8px 0;background:#fff8f8} .failure h3{font-size:1rem;margin:4px 0}
.timeline{margin:6px 0;overflow-x:auto} .timeline figcaption{font-size:12px} .timeline .orders-tried,.timeline .overlapping{font:12px monospace}
.failure dd{margin:0;white-space:pre-wrap;word-break:break-word;font:12px monospace} pre{white-space:pre-wrap;word-break:break-all;background:#f5f5f5;padding:4px} dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:0} dt{color:#616161}
</style></head><body>
<h1>Conformance matrix — <span class="verdict" id="verdict">${esc(m.verdict)}</span></h1>
<p id="verdict-line"><strong>${esc(m.label)}</strong></p>
<dl>
${
  run
    ? `<dt>target</dt><dd>${esc(run.profile)} ` +
      `— ${esc(run.salesBaseUrl)}</dd><dt>tenant</dt><dd>${esc(run.tenant)}</dd><dt>run</dt><dd><code ` +
      `id="run-id">${esc(run.runId)}</code>, ` +
      `seed ${run.seed}, ${esc(run.startedAt)}</dd>${
        run.defects.length ? `<dt>reference defects</dt><dd>${esc(run.defects.join(', '))}</dd>` : ''
      }`
    : ''
}
<dt>checks</dt><dd id="totals">${totalsLine(t, { wrap: (key, n) => `<span id="${key}">${n}</span>` })}</dd>
${m.notes.map((n) => `<dt>note</dt><dd class="note">${esc(n)}</dd>`).join('\n')}
${
  m.requirements.length > 0
    ? `<dt>requirements</dt><dd id="requirements">${requirementCounts(m)} (common/requirements.json)</dd>\n`
    : ''
}<dt>operations</dt><dd id="operations">${m.rows.length}: ${b.passed} passed, ${b.failed} failed, ${b['not-applicable']} not applicable, ${b['auth-only']} reached only with rejected credentials, ${b['exercised-without-check']} called without a check, ${b['never-exercised']} never exercised (measured from traffic)</dd>${
    m.contractValidated > 0
      ? `
<dt>published contracts</dt><dd id="contracts">${m.contractValidated} exchanges validated against the profile's ` +
        `OpenAPI documents, ${m.contractFindings.length} finding(s)</dd>`
      : ''
  }${
    m.realWorldData
      ? `
<dt>real-world data</dt><dd id="real-world-data">${esc(realWorldLine(m.realWorldData))}</dd>`
      : ''
  }
</dl>
${failuresSection(m)}
${requirementsTable(m)}${legend()}
<table><thead><tr><th>operation</th><th>method and path</th><th>outcome</th><th>checks</th><th>calls past auth / all</th><th>statuses</th><th>check ids</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${documentWarningsSection(m)}${
  m.contractFindings.length > 0
    ? `<h2>Published-contract findings (${m.contractFindings.length})</h2>
<table id="contract-findings"><thead><tr><th>operation</th><th>check</th><th>policy</th><th>finding (with the ` +
      `document's pointer)</th></tr></thead>
<tbody>
${m.contractFindings
  .map(
    (f) =>
      `<tr ` +
      `data-operation="${esc(f.operationId)}"><td><code>${esc(f.operationId)}</code></td><td>${esc(f.check)}</td><td>${esc(f.policy)}</td><td>${esc(f.message)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`
    : ''
}
</body></html>
`
}
