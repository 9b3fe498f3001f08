import type { OperationId } from '../../../common/operations'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../../common/project-root'
import { formatViolations } from '../../../helpers/checks/failure'
import type { InvariantId } from '../../../helpers/oracle/invariants'
import { ruleLocation, violationList } from '../../../helpers/oracle/judged-at'
import { WebhooksModel } from '../../../helpers/oracle/webhooks-model'
import { answer } from './support'

const OWNER = 'acme/broker@acme.test'
const T0 = '2026-01-01T10:00:00.000Z'
/** The statement at a line: the line and the next ones, up to the first that closes a call or an object. */
const sourceLine = (file: string, line: number) => {
  const lines = readFileSync(join(PROJECT_ROOT, file), 'utf8')
    .split('\n')
    .slice(line - 1, line + 11)
  const end = lines.findIndex((l) => /^\s*[})]/.test(l) || /\)\s*$/.test(l))
  return lines.slice(0, end < 0 ? 1 : end + 1).join('\n')
}

/** Judges one answer with the list the model's verdicts use (helpers/oracle/service-model.ts). */
function judge(
  m: WebhooksModel,
  op: OperationId,
  status: number,
  body: unknown,
  o: { id?: string; json?: unknown; owner?: string } = {},
) {
  const out = violationList()
  m.observe(
    {
      op,
      owner: o.owner ?? OWNER,
      beganAt: Date.now(),
      overlapped: false,
      ...(o.id ? { id: o.id } : {}),
      ...(o.json ? { json: o.json } : {}),
    },
    answer(status, body),
    new Set<InvariantId>(),
    out,
  )
  return out
}

function created(): WebhooksModel {
  const m = new WebhooksModel()
  judge(
    m,
    'webhooks.subscription.create',
    201,
    { id: 's1', event: 'export', url: 'http://a', createdAt: T0, updatedAt: T0 },
    { json: { event: 'export', url: 'http://a' } },
  )
  return m
}

describe('a broken invariant names the rule of the model that judged it', () => {
  it('a rule pushing its violation directly: its own line, which names the invariant', () => {
    const [v] = judge(created(), 'webhooks.subscriptions.list', 200, [])
    expect(v?.invariant).toBe('WH-INV-001')
    expect(v?.at?.file).toBe('helpers/oracle/webhooks-model.ts')
    expect(sourceLine(v!.at!.file, v!.at!.line)).toContain("invariant: 'WH-INV-001'")
  })

  it('a rule going through a relay (v(...)): the line of the rule, not of the relay', () => {
    const [v] = judge(
      created(),
      'webhooks.subscription.update',
      200,
      {},
      { id: 's1', owner: 'globex/broker@globex.test', json: { url: 'http://x' } },
    )
    expect(v?.invariant).toBe('WH-INV-006')
    expect(sourceLine(v!.at!.file, v!.at!.line)).toMatch(/\bv\(\s*'WH-INV-006'/)
  })

  it("the failure prints it as file:line, the model's rule", () => {
    const [v] = judge(created(), 'webhooks.subscriptions.list', 200, [])
    expect(formatViolations([v!])).toContain(
      `judged by: helpers/oracle/webhooks-model.ts:${v!.at!.line} (the model's rule)`,
    )
  })

  it(
    'from a stack: the first frame of the model whose line names the invariant, else the first frame of the ' + 'model',
    () => {
      const stack = [
        'Error',
        `    at push (${join(PROJECT_ROOT, 'helpers/oracle/judged-at.ts')}:40:5)`,
        `    at v (${join(PROJECT_ROOT, 'helpers/oracle/m.ts')}:2:5)`,
        `    at observe (${join(PROJECT_ROOT, 'helpers/oracle/m.ts')}:4:5)`,
      ].join('\n')
      const read = () => "const v = (id) => out.push(id)\n  v(id)\nx\n  if (bad) v('WH-INV-002', 'a', 'b')\n"
      expect(ruleLocation('WH-INV-002', stack, read)).toEqual({ file: 'helpers/oracle/m.ts', line: 4 })
      expect(ruleLocation('WH-INV-003', stack, read)).toEqual({ file: 'helpers/oracle/m.ts', line: 2 })
      expect(ruleLocation('WH-INV-003', 'Error', read)).toBeUndefined()
    },
  )
})
