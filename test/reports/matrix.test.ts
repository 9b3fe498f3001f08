import { describe, expect, it } from 'vitest'
import { OPERATIONS } from '../../common/operations'
import { buildMatrix } from '../../runner/run/results/matrix'
import { matrixHtml } from '../../runner/run/results/matrix-html'
import { matrixMarkdown } from '../../runner/run/results/matrix-markdown'
import type { CheckOutcome, ChecksReport } from '../../runner/run/results/results'
import type { TrafficLine } from '../../helpers/client/http/traffic-file'

function outcome(id: string, status: CheckOutcome['status']): CheckOutcome {
  return {
    id,
    document: 'sales-service.md',
    section: '§4',
    requirement: `requirement of ${id} <b>`,
    title: `${id} title`,
    file: 'suites/x.test.ts',
    status,
    durationMs: 1,
    deviations: [],
  }
}

function report(): ChecksReport {
  const checks = [
    outcome('A-1', 'passed'),
    { ...outcome('A-2', 'failed'), about: [OPERATIONS[0]!.id] },
    outcome('A-3', 'not-applicable'),
    outcome('SEC-1', 'passed'),
  ]
  const operations = OPERATIONS.map((o) => ({
    id: o.id,
    service: o.service,
    method: o.method,
    path: o.path,
    calls: 0,
    checks: [] as string[],
  }))
  operations[0] = { ...operations[0]!, calls: 2, checks: ['A-1', 'A-2'] }
  operations[1] = { ...operations[1]!, calls: 1, checks: ['A-1'] }
  operations[2] = { ...operations[2]!, calls: 1, checks: ['A-3'] }
  return {
    run: undefined,
    totals: { passed: 2, failed: 1, errored: 0, blocked: 0, skipped: 0, 'not-applicable': 1, deviations: 0 },
    checks,
    operations,
  }
}

const traffic = (op: string, status: number | undefined, test?: string): TrafficLine => ({
  at: '',
  runId: 'r',
  method: 'GET',
  template: '/x',
  durationMs: 1,
  operationId: op,
  ...(status ? { status } : {}),
  ...(test ? { test } : {}),
})

describe('conformance matrix', () => {
  it('lists every operation of both specs with the outcome of the checks that exercised it', () => {
    const ops = OPERATIONS.map((o) => o.id)
    const m = buildMatrix(report(), [
      traffic(ops[0]!, 200),
      traffic(ops[0]!, 500),
      traffic(ops[3]!, 401, 'suite > SEC-1 title'),
      traffic(ops[4]!, undefined),
    ])
    expect(m.rows).toHaveLength(33)
    expect(m.rows.map((r) => r.outcome).slice(0, 6)).toEqual([
      'failed',
      'passed',
      'not-applicable',
      'auth-only',
      'exercised-without-check',
      'never-exercised',
    ])
    expect(m.rows[0]!.statuses).toEqual({ '200': 1, '500': 1 })
    expect(m.rows[3]!.checks.map((c) => c.id)).toEqual(['SEC-1'])
    expect(m.rows[4]!.statuses).toEqual({ error: 1 })
    expect(m.verdict).toBe('DOES NOT CONFORM')
    expect(m.byOutcome['never-exercised']).toBe(28)
  })

  it(
    'marks an operation FAILED only for a failed check whose requirement is about it, not for one that merely ' +
      'called it',
    () => {
      const r = report()
      r.checks[1] = { ...r.checks[1]!, about: [OPERATIONS[5]!.id] }
      const m = buildMatrix(r)
      expect(m.rows[0]!.outcome).toBe('passed')
      expect(m.rows[0]!.checks.find((c) => c.id === 'A-2')).toMatchObject({ status: 'failed' })
      expect(m.rows[5]!.outcome).toBe('failed')
      expect(m.rows.filter((x) => x.outcome === 'failed').map((x) => x.operationId)).toEqual([OPERATIONS[5]!.id])
      expect(matrixMarkdown(m)).toContain('A-2 (failed, about another operation)')
    },
  )

  it('renders Markdown with one row per operation and the failed requirements', () => {
    const md = matrixMarkdown(buildMatrix(report()))
    for (const op of OPERATIONS) expect(md).toContain(`\`${op.id}\``)
    expect(md).toContain('## Failed requirements')
    expect(md).toContain('**A-2**')
    expect(md).toContain('## Never exercised')
  })

  it('says how many exchanges were validated against the published documents, and nothing when none was', () => {
    const plain = buildMatrix(report())
    expect(plain.contractValidated).toBe(0)
    expect(matrixMarkdown(plain)).not.toContain('Published contracts')
    const m = buildMatrix({ ...report(), contracts: { validated: 17 } })
    expect(m.contractValidated).toBe(17)
    expect(matrixMarkdown(m)).toContain('Published contracts: 17 exchanges validated')
    expect(matrixHtml(m)).toContain('<dd id="contracts">17 exchanges validated')
  })

  it(
    "lists the documents' warnings in the Markdown and the HTML matrix, their text escaped and neutralised, and " +
      'nothing without them',
    () => {
      const run = {
        runId: 'r1',
        seed: 1,
        profile: 'p.json',
        embedded: true,
        tenant: 't',
        user: 'u',
        salesBaseUrl: 'http://s',
        webhookBaseUrl: 'http://w',
        authUrl: 'http://a',
        defects: [],
        startedAt: '2026-11-27T00:00:00Z',
      }
      const documentWarnings = [
        {
          source: 'docs/sales.openapi.json',
          pointer: '#/paths/~1x/get/parameters/0',
          message: 'a parameter without schema: only its presence is validated',
        },
        {
          source: 'docs/<evil>.json',
          pointer: '#/components/schemas/A/type',
          message: 'type "bool" <script>alert(1)</script>\u001b[31m read as boolean',
        },
        {
          source: 'docs/sales.openapi.json',
          pointer: '#/info/description',
          message: 'example token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ',
        },
      ]
      const plain = matrixHtml(buildMatrix({ ...report(), run }))
      expect(plain).not.toContain('document-warnings')
      const m = buildMatrix({ ...report(), run: { ...run, documentWarnings } })
      expect(matrixMarkdown(m)).toContain('## Document warnings (3)')
      const html = matrixHtml(m)
      expect(html).toContain('<h2>Document warnings (3)</h2>')
      expect(html.match(/<table id="document-warnings">[\s\S]*?<\/table>/)?.[0].match(/<tr>/g)).toHaveLength(4)
      expect(html).toContain(
        '<td>docs/sales.openapi.json</td><td><code>#/paths/~1x/get/parameters/0</code></td><td>a parameter without ' +
          'schema: only its presence is validated</td>',
      )
      expect(html).toContain('<td>docs/&lt;evil&gt;.json</td>')
      expect(html).toContain('type &quot;bool&quot; &lt;script&gt;alert(1)&lt;/script&gt;\\u001b[31m read as boolean')
      expect(html).not.toContain('<script>')
      expect(html).not.toContain('\u001b')
      expect(html).toContain('example token [REDACTED-JWT]')
      expect(html).not.toContain('eyJzdWIiOiJ4In0')
    },
  )

  it('renders self-contained HTML with escaped text and the totals', () => {
    const html = matrixHtml(buildMatrix(report()))
    expect(html).not.toContain('<script')
    expect(html).not.toContain('requirement of A-2 <b>')
    expect(html).toContain('requirement of A-2 &lt;b&gt;')
    expect(html).toContain('<span id="failed">1</span>')
    expect(html.match(/<tr data-operation=/g)).toHaveLength(33)
  })

  it(
    'HTML: requirement coverage (the counts and the requirements not fully covered, escaped) and the notes of the ' +
      'run, as the Markdown matrix',
    () => {
      const requirements: NonNullable<ChecksReport['requirements']> = [
        {
          id: 'REQ-1',
          document: 'sales-service.md',
          section: '§4',
          paraphrase: 'covered one',
          status: 'covered',
          judged: 2,
          checks: 2,
          enable: [],
        },
        {
          id: 'REQ-2',
          document: 'sales-service.md',
          section: '§5',
          paraphrase: 'isolation <i>',
          status: 'untested',
          judged: 0,
          checks: 3,
          enable: ['users.otherTenant <x>'],
        },
        {
          id: 'REQ-3',
          document: 'webhook-subscriptions.md',
          section: '§6',
          paraphrase: 'delivery',
          status: 'partial',
          judged: 1,
          checks: 4,
          enable: ['features.delivery'],
        },
      ]
      const m = buildMatrix({
        ...report(),
        requirements,
        notes: ['expiry beyond the leeway not probed <n>: AUTH-TOKEN-001'],
      })
      const html = matrixHtml(m)
      expect(html).toContain(
        '<dd id="requirements"><span id="req-covered">1</span> covered, <span id="req-partial">1</span> partially, ' +
          '<span id="req-untested">1</span> untested (common/requirements.json)</dd>',
      )
      expect(html.match(/<tr data-requirement=/g)).toHaveLength(2)
      expect(html).toContain('<tr data-requirement="REQ-2" data-coverage="untested"><td>UNTESTED</td>')
      expect(html).toContain('isolation &lt;i&gt;')
      expect(html).toContain('users.otherTenant &lt;x&gt;')
      expect(html).not.toContain('<x>')
      expect(html).toContain('<dd class="note">expiry beyond the leeway not probed &lt;n&gt;: AUTH-TOKEN-001</dd>')
      expect(matrixMarkdown(m)).toContain('- Note: expiry beyond the leeway not probed &lt;n&gt;: AUTH-TOKEN-001')
      const plain = matrixHtml(buildMatrix(report()))
      expect(plain).not.toContain('id="requirements"')
      expect(plain).not.toContain('class="note"')
    },
  )
})
