import { realWorldLine } from './invariants'
import { safeMarkdown, safeText } from '../../../helpers/client/evidence/neutralise'
import { totalsLine } from './totals-line'
import { checkCounts, OUTCOME_LABEL, statusList, type ConformanceMatrix, type MatrixRow } from './matrix'

const MAX_IDS = 8

/** Markdown text (a cell, a paragraph): the one rule (helpers/client/evidence/neutralise.ts). */
const cell = (s: string): string => safeMarkdown(s)

function ids(r: MatrixRow): string {
  const failed = r.checks.filter((c) => c.failedHere).map((c) => `**${c.id}** ✗`)
  const rest = r.checks
    .filter((c) => !c.failedHere)
    .map((c) => (c.status === 'failed' ? `${c.id} (failed, about another operation)` : c.id))
  const all = [...failed, ...rest]
  return all.length > MAX_IDS
    ? `${all.slice(0, MAX_IDS).join(', ')} … (+${all.length - MAX_IDS})`
    : all.join(', ') || '—'
}

/**
 * The failed requirements, first after the totals: per failure its clause, requirement, expected and actual, the
 * request and the curl command that sends it again (secrets as shell variables).
 */
function failedRequirements(m: ConformanceMatrix): string[] {
  const failed = m.rows.flatMap((r) => r.checks.filter((c) => c.status === 'failed'))
  for (const c of m.failedChecks) if (!failed.some((f) => f.id === c.id)) failed.push(c)
  if (failed.length === 0) return []
  const byId = new Map(m.failedChecks.map((c) => [c.id, c]))
  const out = [`## Failed requirements (${new Set(failed.map((c) => c.id)).size})`, '']
  const seen = new Set<string>()
  for (const c of failed) {
    if (seen.has(c.id)) continue
    seen.add(c.id)
    out.push(`- **${c.id}** (${c.section}): ${cell(c.requirement)}`)
    const f = byId.get(c.id)?.failure
    if (!f) continue
    if (f.expected !== undefined) out.push(`  - expected: ${cell(f.expected)}`)
    if (f.actual !== undefined) out.push(`  - actual: ${cell(f.actual)}`)
    if (f.error !== undefined) out.push(`  - error: ${cell(f.error)}`)
    // a code span: no Markdown inside, but the one rule's redaction and control-character escape still apply
    if (f.request !== undefined) out.push(`  - request: \`${safeText(f.request).replace(/`/g, "'")}\``)
    for (const r of f.reproduce.slice(0, 3)) out.push(`  - reproduce: \`${safeText(r).replace(/`/g, "'")}\``)
  }
  out.push('')
  return out
}

/** reports/conformance.md: the matrix as Markdown (readable in a PR comment or a job summary). */
export function matrixMarkdown(m: ConformanceMatrix): string {
  const t = m.totals
  const run = m.run
  const out: string[] = [`# Conformance matrix — ${cell(m.verdict)}`, '', `**Verdict: ${cell(m.label)}**`, '']
  if (run) {
    out.push(
      `Target **${cell(run.profile)}** (${cell(run.salesBaseUrl)}), tenant **${cell(run.tenant)}**, ` +
        `run ${cell(run.runId)}, seed ${run.seed}, started ${cell(run.startedAt)}${
          run.defects.length ? `, reference defects: ${cell(run.defects.join(', '))}` : ''
        }.`,
      '',
    )
  }
  out.push(`Checks: **${totalsLine(t)}**.`, '')
  out.push(...failedRequirements(m))
  if (m.notes.length > 0) out.push(...m.notes.map((n) => `- Note: ${cell(n)}`), '')
  const b = m.byOutcome
  const notFully = m.requirements.filter((r) => r.status !== 'covered')
  if (m.requirements.length > 0) {
    out.push(
      `Requirements (common/requirements.json): **${m.requirements.length - notFully.length} ` +
        `covered, ${notFully.filter((r) => r.status === 'partial').length} ` +
        `partially, ${notFully.filter((r) => r.status === 'untested').length} untested**.`,
      '',
    )
    for (const r of notFully)
      out.push(
        `- ${r.status === 'untested' ? '**UNTESTED**' : 'partially'} \`${r.id}\` ${r.document} ${r.section}: ${cell(r.enable.join('; '))}`,
      )
    if (notFully.length > 0) out.push('')
  }
  out.push(
    `Operations (${m.rows.length}): ${b.passed} passed, ${b.failed} failed, ${b['not-applicable']} not ` +
      `applicable, ${b['auth-only']} reached only with rejected credentials, ${b['exercised-without-check']} ` +
      `called without a check, ${b['never-exercised']} never exercised. Measured from the recorded traffic.`,
    '',
  )
  for (const service of ['sales', 'webhooks']) {
    const rows = m.rows.filter((r) => r.service === service)
    if (rows.length === 0) continue
    out.push(
      `## ${
        service === 'sales' ? 'Sales service (sales-service.md)' : 'Webhook subscriptions (webhook-subscriptions.md)'
      }`,
      '',
    )
    out.push(
      '| operation | method and path | outcome | checks | calls past auth / all | statuses | check ids |',
      '|---|---|---|---|---:|---|---|',
    )
    for (const r of rows) {
      out.push(
        `| \`${r.operationId}\` | ${cell(`${r.method} ${r.path}`)} | ${OUTCOME_LABEL[r.outcome]} ` +
          `| ${checkCounts(r.checks)} | ${r.calls} / ${r.allCalls} | ${statusList(r.statuses)} | ${ids(r)} |`,
      )
    }
    out.push('')
  }
  if (m.realWorldData) out.push(realWorldLine(m.realWorldData), '')
  if (m.contractValidated > 0)
    out.push(
      `Published contracts: ${m.contractValidated} exchanges validated against the profile's OpenAPI ` +
        `documents, ${m.contractFindings.length} finding(s).`,
      '',
    )
  const warnings = m.run?.documentWarnings ?? []
  if (warnings.length > 0) {
    out.push(
      `## Document warnings (${warnings.length})`,
      '',
      "Authoring errors of the profile's OpenAPI documents: the part is validated as far as it can be, and they " +
        'never fail a run (docs/contracts.md).',
      '',
      '| document | pointer | warning |',
      '|---|---|---|',
    )
    for (const w of warnings) out.push(`| ${cell(w.source)} | \`${cell(w.pointer)}\` | ${cell(w.message)} |`)
    out.push('')
  }
  if (m.contractFindings.length > 0) {
    out.push(
      `## Published-contract findings (${m.contractFindings.length})`,
      '',
      "| operation | check | policy | finding (with the document's pointer) |",
      '|---|---|---|---|',
    )
    for (const f of m.contractFindings)
      out.push(`| \`${f.operationId}\` | ${cell(f.check)} | ${cell(f.policy)} | ${cell(f.message)} |`)
    out.push('')
  }
  const never = m.rows.filter((r) => r.outcome === 'never-exercised')
  if (never.length > 0)
    out.push('## Never exercised', '', ...never.map((r) => `- \`${r.operationId}\` ${r.method} ${r.path}`), '')
  return `${out.join('\n')}\n`
}
