import { basename } from 'node:path'
import type { TestCase } from 'vitest/node'
import type { CheckOutcome } from './results'
import { failureFields } from './failure-fields'

/**
 * The file a contract check's outcome names: where exchanges are judged against the documents (they belong to no suite
 * file).
 */
export const CONTRACT_FILE = 'helpers/client/contracts/openapi.ts'

const KIND_REQUIREMENT: Record<string, string> = {
  request: "the suite's requests to it match the parameters and body the published document declares",
  response: 'its answers match the body the published document declares for their status',
  'response-headers':
    'its answers carry the headers the published document declares for their status, with values matching their ' +
    'schemas',
  'media-type': "its answers' Content-Type is one the published document declares for their status",
  status: 'it answers only with statuses the published document declares',
}

/**
 * Each finding kind on each operation (`CT-<operation>-<kind>`, helpers/client/contracts/openapi-sink.ts) as a check of
 * its
 * own in checks.json, like the model's invariants: failed (policy fail) or passed with the deviation
 * `openapi-contract` (policy warn), counted once however many exchanges show it, naming the document, the JSON
 * pointer, the expectation, what came back, the exchanges and the checks that received them. The check whose request
 * met the finding is not failed by it. Only the kinds with a finding are listed: the checks.json `contracts` line says
 * how many exchanges were judged.
 */
export function contractOutcomes(cases: ReadonlyArray<TestCase>): CheckOutcome[] {
  const byId = new Map<
    string,
    {
      operation: string
      kind: string
      policy: 'warn' | 'fail'
      document: string
      findings: Map<
        string,
        { pointer: string; expected: string; actual: string; exchanges: Set<string>; checks: Set<string> }
      >
    }
  >()
  for (const tc of cases) {
    const notes = tc.meta().contract
    if (!notes) continue
    const check = tc.meta().check?.id ?? tc.name
    for (const n of notes) {
      const entry = byId.get(n.id) ?? {
        operation: n.operation,
        kind: n.kind,
        policy: n.policy,
        document: n.document,
        findings: new Map(),
      }
      if (n.policy === 'fail') entry.policy = 'fail'
      const key = `${n.pointer}|${n.actual}`
      const f = entry.findings.get(key) ?? {
        pointer: n.pointer,
        expected: n.expected,
        actual: n.actual,
        exchanges: new Set<string>(),
        checks: new Set<string>(),
      }
      f.exchanges.add(n.exchange)
      f.checks.add(check)
      entry.findings.set(key, f)
      byId.set(n.id, entry)
    }
  }
  return [...byId.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, e]) => {
      const requirement = `${e.operation}: ${KIND_REQUIREMENT[e.kind] ?? e.kind}.`
      const lines = [...e.findings.values()]
        .slice(0, 10)
        .map((f) =>
          [
            `actual: ${f.actual}`,
            `expected: ${f.expected}`,
            `document: ${e.document}`,
            `pointer: ${f.pointer}`,
            `exchange: ${[...f.exchanges].slice(0, 3).join('; ')}${
              f.exchanges.size > 3 ? ` (+${f.exchanges.size - 3} more)` : ''
            }`,
            `received by: ${[...f.checks].sort().slice(0, 5).join(', ')}${
              f.checks.size > 5 ? ` (+${f.checks.size - 5} more)` : ''
            }`,
          ].join('\n'),
        )
      const more = e.findings.size > 10 ? `\n(${e.findings.size - 10} more finding(s) of this kind)` : ''
      const message = `${lines.join('\n\n')}${more}`
      const base = {
        id,
        document: basename(e.document.replace(/[?#].*$/, '')) || e.document,
        section: 'contract',
        requirement,
        title: `${id} ${requirement}`,
        file: CONTRACT_FILE,
        durationMs: 0,
        about: [e.operation],
        note: `${e.findings.size} distinct finding(s)`,
      }
      const first = [...e.findings.values()][0]
      // the first finding as data, for the matrix (runner/run/results/matrix.ts contractFindingsOf)
      const exchanges = first
        ? `${[...first.exchanges].slice(0, 3).join('; ')}${
            first.exchanges.size > 3 ? ` (+${first.exchanges.size - 3} more)` : ''
          }`
        : ''
      const contract = { actual: first?.actual ?? '', exchange: exchanges, pointer: first?.pointer ?? '' }
      if (e.policy === 'fail')
        return {
          ...base,
          contract,
          status: 'failed' as const,
          error: message,
          failure: failureFields(
            `${base.document} ${base.section}`,
            requirement,
            first ? { expected: first.expected, actual: first.actual, reproduce: [] } : undefined,
          ),
          deviations: [],
        }
      return {
        ...base,
        contract,
        status: 'passed' as const,
        deviations: [{ id: `openapi-contract:${id}`, message, policy: 'warn' }],
      }
    })
}
