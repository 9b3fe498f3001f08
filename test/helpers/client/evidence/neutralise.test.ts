import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withRunningCheck } from '../../../../helpers/client/http/running-check'
import { Recorder } from '../../../../helpers/client/http/recorder'
import type { HttpResult } from '../../../../helpers/client/http/types'
import { allureExchangeSink } from '../../../../helpers/client/http/allure-sink'
import { redactedJson } from '../../../../helpers/client/evidence/evidence'
import fc from 'fast-check'
import {
  safeHtml,
  safeJson,
  safeJsonOfData,
  safeMarkdown,
  safeText,
  safeValue,
  safeXml,
} from '../../../../helpers/client/evidence/neutralise'
import { ALLURE_RESULTS_ENV } from '../../../../common/report-paths'
import { Redactor, runRedactor } from '../../../../helpers/client/evidence/redact'
import { trafficFileSink } from '../../../../helpers/client/http/traffic-file'
import { consoleLines } from '../../../../runner/run/results/console-lines'
import { emptyReport, withVerdict, writeRunReports, writeStoppedRun } from '../../../../runner/run/results/run-reports'
import type { ChecksReport } from '../../../../runner/run/results/results'
import type { RunInfo } from '../../../../runner/run/results/run-info'
import { filesOf } from '../../../hostile/canaries'
import { base64Contexts, canariesOf, leakForms } from '../../../../scripts/hostile/encodings'

/**
 * One rule for every text that leaves the run (docs/reliability.md): every writer of the run is handed text a hostile
 * target sent (the secret in every encoding of issue #31, C0/C1/bidi controls, Markdown and HTML), and no file it
 * writes holds the secret in any encoding, a raw control character, or live Markdown/HTML.
 */
const SECRET = 'Canary&<pw>"q7x2ab9k+/='
const CONTROLS = '\u009b2J\u009d\u202e\u2066\u001b[31m\r\u0007'
const MARKUP = '<img src=x onerror=alert(1)> [click](http://evil.example) | **bold** # head `code`'
const HOSTILE = [
  ...leakForms(SECRET).map((f) => `${f.name}: ${f.text}`),
  ...base64Contexts(SECRET).map((c) => `${c.name}: ${c.text}`),
  `controls ${CONTROLS}`,
  MARKUP,
].join('\n')
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lc-neutralise-'))
  runRedactor().addSecret(SECRET)
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
  delete process.env[ALLURE_RESULTS_ENV]
})

function hostileRun(): RunInfo {
  return {
    runId: `run-${HOSTILE.slice(0, 40)}`,
    seed: 1,
    profile: HOSTILE,
    embedded: false,
    tenant: HOSTILE,
    user: 'u',
    salesBaseUrl: `http://x/?q=${encodeURIComponent(SECRET)}`,
    webhookBaseUrl: 'http://x',
    authUrl: 'http://x',
    defects: [],
    startedAt: '2026-01-01T00:00:00Z',
  }
}

function hostileReport(): ChecksReport {
  const base = emptyReport(hostileRun())
  const check = {
    id: 'SL-X-001',
    document: 'sales-service.md',
    section: '§1',
    requirement: 'r',
    title: `t ${HOSTILE}`,
    file: 'suites/x.test.ts',
    deviations: [{ id: 'D', message: HOSTILE, policy: 'p' }],
    durationMs: 1,
  }
  return withVerdict(
    {
      ...base,
      checks: [
        { ...check, status: 'failed', error: HOSTILE },
        { ...check, id: 'SL-X-002', status: 'errored', error: HOSTILE },
        { ...check, id: 'SL-X-003', status: 'blocked', blocked: { reason: HOSTILE } },
        { ...check, id: 'SL-X-004', status: 'not-applicable', note: HOSTILE },
      ],
      totals: { ...base.totals, failed: 1, errored: 1, blocked: 1, 'not-applicable': 1 },
    },
    { kind: 'inconclusive', cause: HOSTILE },
  )
}

function expectNeutral(where: string, text: string): void {
  for (const c of canariesOf(SECRET))
    expect(text.includes(c), `${where}: the secret as ${JSON.stringify(c)}`).toBe(false)
  expect(RAW_CONTROL.exec(text)?.[0], `${where}: a raw control character`).toBeUndefined()
  if (/\.(md|html|xml)$/.test(where)) expect(text, `${where}: live markup`).not.toMatch(/<img/)
  if (/\.md$/.test(where)) expect(text, `${where}: live Markdown`).not.toMatch(/\]\(http|\*\*bold/)
}

describe('one rule for every text that leaves the run', () => {
  it('the hostile text itself carries every canary and control (the test can fail)', () => {
    expect(canariesOf(SECRET).every((c) => HOSTILE.includes(c))).toBe(true)
    expect(HOSTILE).toMatch(RAW_CONTROL)
  })

  it('each function: the secret in no encoding, no raw control, the format escaped', () => {
    expectNeutral('safeText', safeText(HOSTILE))
    expectNeutral('safeJson', safeJson({ [HOSTILE]: HOSTILE, list: [HOSTILE] }))
    expectNeutral('safeValue', JSON.stringify(safeValue({ a: HOSTILE })))
    expectNeutral('x.html', safeHtml(HOSTILE))
    expectNeutral('x.xml', safeXml(HOSTILE))
    expectNeutral('x.md', safeMarkdown(HOSTILE))
    expect(safeMarkdown('a | b\nc')).toBe('a \\| b c')
    expect(safeText(safeText(HOSTILE))).toBe(safeText(HOSTILE))
  })

  it(
    'every report writer: checks.json, verdict.json, run.json, junit.xml, conformance.md/.html, Allure verdict, ' +
      'console lines',
    () => {
      const out = join(dir, 'reports')
      const report = hostileReport()
      writeRunReports({
        dir: out,
        reports: [{ report }],
        overall: report,
        traffic: [],
        allureResultsDir: join(out, 'allure-results'),
      })
      writeStoppedRun(join(out, 'stopped'), hostileRun(), { kind: 'configuration', cause: HOSTILE })
      const files = filesOf(out)
      for (const name of [
        'checks.json',
        'verdict.json',
        'junit.xml',
        'conformance.md',
        'conformance.html',
        'environment.properties',
        'executor.json',
        'run.json',
      ]) {
        expect(
          files.some((f) => f.endsWith(name)),
          name,
        ).toBe(true)
      }
      for (const f of files) expectNeutral(relative(out, f), readFileSync(f, 'utf8'))
      expectNeutral('console', safeText(consoleLines(report, true).join('\n')))
    },
  )

  it(
    'Allure exchange attachments, the traffic file and attached evidence: header names and values, bodies, ' + 'URL',
    async () => {
      const results = join(dir, 'allure')
      mkdirSync(results, { recursive: true })
      process.env[ALLURE_RESULTS_ENV] = results
      const traffic = trafficFileSink(join(dir, 'traffic'))
      const recorder = new Recorder({ runId: 'r', redactor: runRedactor(), sinks: [allureExchangeSink, traffic] })
      const req = {
        method: 'GET' as const,
        url: `http://x/api?p=${encodeURIComponent(SECRET)}&c=${encodeURIComponent(CONTROLS)}`,
        headers: {
          authorization: `Basic ${Buffer.from(`u:${SECRET}`).toString('base64')}`,
          [SECRET.toLowerCase().replace(/[^a-z0-9]/g, '-')]: HOSTILE,
        },
      }
      const body = { message: HOSTILE, [CONTROLS]: SECRET, nested: [{ html: MARKUP }] }
      const res: HttpResult = {
        status: 500,
        headers: { [`x-${encodeURIComponent(SECRET)}`]: HOSTILE.replace(/\n/g, ' '), 'x-c1': CONTROLS },
        body,
        raw: Buffer.from(JSON.stringify(body)),
        text: JSON.stringify(body),
        contentType: 'application/json',
        durationMs: 1,
        request: req,
      }
      await withRunningCheck('hostile > exchange', () => recorder.record(req, res, new Error(HOSTILE)))
      traffic.close()
      const written = [...filesOf(results), ...filesOf(join(dir, 'traffic'))]
      expect(written.length).toBeGreaterThanOrEqual(2)
      for (const f of written) expectNeutral(relative(dir, f), readFileSync(f, 'utf8'))
      expectNeutral('evidence', redactedJson(body))
    },
  )
})

describe('Allure exchange attachments masked once (docs/performance.md)', () => {
  it('masks again an exchange whose own answer taught the redactor a secret its earlier texts hold', async () => {
    const results = join(dir, 'allure-learned')
    mkdirSync(results, { recursive: true })
    process.env[ALLURE_RESULTS_ENV] = results
    const recorder = new Recorder({ runId: 'r', redactor: runRedactor(), sinks: [allureExchangeSink] })
    const fresh = `Learned${Date.now()}xq9`
    // `link` is masked before `token` teaches the redactor the value: the recorded body still holds it there
    const body = { link: `http://x/?t=${fresh}`, token: fresh }
    const req = { method: 'POST' as const, url: 'http://x/login', headers: {} }
    const res: HttpResult = {
      status: 200,
      headers: {},
      body,
      raw: Buffer.from(JSON.stringify(body)),
      text: JSON.stringify(body),
      contentType: 'application/json',
      durationMs: 1,
      request: req,
    }
    const exchange = await withRunningCheck('learned > exchange', () => recorder.record(req, res))
    expect(exchange.response?.body, 'the recorder alone leaves it in the link (the test can fail)').toContain(fresh)
    // a later exchange that holds it, recorded once the redactor knows it: masked by the recorder itself
    await withRunningCheck('learned > later', () =>
      recorder.record({ ...req, url: `http://x/next?t=${fresh}` }, { ...res, body: { again: fresh } }),
    )
    const written = filesOf(results).filter((f) => f.endsWith('-attachment.json'))
    expect(written.length).toBe(2)
    for (const f of written) expect(readFileSync(f, 'utf8')).not.toContain(fresh)
  })
})

describe('safeValue keys', () => {
  it('keeps __proto__ and constructor as plain own keys, in order, without touching any prototype', () => {
    const parsed = JSON.parse(
      '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}, "a": 1}',
    ) as object
    const out = safeValue(parsed) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(['__proto__', 'constructor', 'a'])
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"a":1}')
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })
})

describe('safeJsonOfData: safeJson without the copy (docs/performance.md)', () => {
  const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'
  /** Strings mixing plain text with what neutralising changes: controls, bidi, a JWT, backslashes before letters. */
  const text = fc
    .array(
      fc.oneof(
        fc.string(),
        fc.constantFrom('\u001b[31m', '\r', '\b', '\f', '\u0000', '\u0085', '\u202e', '\u2028', '\\b', '\\u001b'),
        fc.constant(JWT),
        fc.constantFrom('\t', '\n', 'é', '😀', '__proto__'),
      ),
      { maxLength: 5 },
    )
    .map((parts) => parts.join(''))
  const data = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    ),
  })).value

  it('writes what safeJson writes with a redactor that knows no secret, for any JSON data', () => {
    fc.assert(
      fc.property(data, (v) => {
        const r = new Redactor()
        expect(safeJsonOfData(v, r)).toBe(safeJson(v, { redactor: r }))
      }),
      { numRuns: 2000 },
    )
  })

  it("writes what safeJson writes past safeValue's depth, and with a redactor that knows a secret", () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 300; i += 1) deep = [deep]
    const none = new Redactor()
    expect(safeJsonOfData({ deep }, none)).toBe(safeJson({ deep }, { redactor: none }))
    expect(safeJsonOfData({ deep }, none)).toContain('deeper than')
    const knows = new Redactor()
    knows.addSecret('Sekr3t-value-42')
    const v = { body: { note: 'has Sekr3t-value-42 inside' } }
    expect(safeJsonOfData(v, knows)).toBe(safeJson(v, { redactor: knows }))
    expect(safeJsonOfData(v, knows)).not.toContain('Sekr3t-value-42')
  })
})
