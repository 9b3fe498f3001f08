import { checkCounts, OUTCOME_LABEL, statusList, type ConformanceMatrix, type MatrixRow } from './matrix'

const MAX_IDS = 8

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function ids(r: MatrixRow): string {
  const failed = r.checks.filter((c) => c.failedHere).map((c) => `**${c.id}** ✗`)
  const rest = r.checks.filter((c) => !c.failedHere).map((c) => (c.status === 'failed' ? `${c.id} (failed, about another operation)` : c.id))
  const all = [...failed, ...rest]
  return all.length > MAX_IDS ? `${all.slice(0, MAX_IDS).join(', ')} … (+${all.length - MAX_IDS})` : all.join(', ') || '—'
}

/** reports/conformance.md: the matrix as Markdown (readable in a PR comment or a job summary). */
export function matrixMarkdown(m: ConformanceMatrix): string {
  const t = m.totals
  const run = m.run
  const out: string[] = [`# Conformance matrix — ${m.verdict}`, '', `**Verdict: ${m.label}**`, '']
  if (run) {
    out.push(`Target **${run.profile}** (${run.salesBaseUrl}), tenant **${run.tenant}**, run \`${run.runId}\`, seed ${run.seed}, started ${run.startedAt}${run.defects.length ? `, reference defects: ${run.defects.join(', ')}` : ''}.`, '')
  }
  out.push(`Checks: **${t.passed} passed, ${t.failed} failed, ${t.errored} errored, ${t.blocked} blocked, ${t.skipped} skipped, ${t['not-applicable']} not applicable**, ${t.deviations} deviation(s).`, '')
  if (m.notes.length > 0) out.push(...m.notes.map((n) => `- Note: ${cell(n)}`), '')
  const b = m.byOutcome
  const notFully = m.requirements.filter((r) => r.status !== 'covered')
  if (m.requirements.length > 0) {
    out.push(`Requirements (fixtures/requirements.json): **${m.requirements.length - notFully.length} covered, ${notFully.filter((r) => r.status === 'partial').length} partially, ${notFully.filter((r) => r.status === 'untested').length} untested**.`, '')
    for (const r of notFully) out.push(`- ${r.status === 'untested' ? '**UNTESTED**' : 'partially'} \`${r.id}\` ${r.document} ${r.section}: ${cell(r.enable.join('; '))}`)
    if (notFully.length > 0) out.push('')
  }
  out.push(`Operations (${m.rows.length}): ${b.passed} passed, ${b.failed} failed, ${b['not-applicable']} not applicable, ${b['auth-only']} reached only with rejected credentials, ${b['exercised-without-check']} called without a check, ${b['never-exercised']} never exercised. Measured from the recorded traffic.`, '')
  for (const service of ['sales', 'webhooks']) {
    const rows = m.rows.filter((r) => r.service === service)
    if (rows.length === 0) continue
    out.push(`## ${service === 'sales' ? 'Sales service (sales-service.md)' : 'Webhook subscriptions (webhook-subscriptions.md)'}`, '')
    out.push('| operation | method and path | outcome | checks | calls past auth / all | statuses | check ids |', '|---|---|---|---|---:|---|---|')
    for (const r of rows) {
      out.push(`| \`${r.operationId}\` | ${cell(`${r.method} ${r.path}`)} | ${OUTCOME_LABEL[r.outcome]} | ${checkCounts(r.checks)} | ${r.calls} / ${r.allCalls} | ${statusList(r.statuses)} | ${cell(ids(r))} |`)
    }
    out.push('')
  }
  if (m.contractValidated > 0) out.push(`Published contracts: ${m.contractValidated} exchanges validated against the profile's OpenAPI documents, ${m.contractFindings.length} finding(s).`, '')
  if (m.contractFindings.length > 0) {
    out.push(`## Published-contract findings (${m.contractFindings.length})`, '', '| operation | check | policy | finding (with the document\'s pointer) |', '|---|---|---|---|')
    for (const f of m.contractFindings) out.push(`| \`${f.operationId}\` | ${f.check} | ${f.policy} | ${cell(f.message)} |`)
    out.push('')
  }
  const failed = m.rows.flatMap((r) => r.checks.filter((c) => c.status === 'failed').map((c) => ({ ...c, op: r.operationId })))
  for (const c of m.failedChecks) if (!failed.some((f) => f.id === c.id)) failed.push({ ...c, op: '' })
  if (failed.length > 0) {
    out.push('## Failed requirements', '')
    const seen = new Set<string>()
    for (const c of failed) {
      if (seen.has(c.id)) continue
      seen.add(c.id)
      out.push(`- **${c.id}** (${c.section}): ${cell(c.requirement)}`)
    }
    out.push('')
  }
  const never = m.rows.filter((r) => r.outcome === 'never-exercised')
  if (never.length > 0) out.push('## Never exercised', '', ...never.map((r) => `- \`${r.operationId}\` ${r.method} ${r.path}`), '')
  return `${out.join('\n')}\n`
}
