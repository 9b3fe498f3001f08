/**
 * The CI proof with an independent validator (docs/contracts.md "The Prism proof"): the whole suite runs against
 * the embedded reference through two `prism proxy` instances, one per public document of the real services
 * (../shared/anchors/*.openapi.subset.json). Prism runs without --errors, so every answer reaches the suite
 * unchanged and the checks must still pass; its log names every request and response violation, and each must be
 * one of the accepted ones below. The same run names the same documents in its profile (`openapi`, contract
 * `warn`), so the suite judges the very exchanges Prism judged: every operation and finding kind Prism reports,
 * the suite reports too, but the differences listed (docs/contracts.md "The Prism comparison"). One run for both:
 * the comparison costs no run of its own. Without ../shared/anchors/ (a clone outside the workplace) the proof is
 * not run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { startReference, type RunningReference } from '../../reference/server'
import { runConformance, type ConformanceRun } from '../../scripts/harness/run-conformance'
import {
  acceptedBy,
  parsePrismLog,
  prismKind,
  type AcceptedViolation,
  type PrismViolation,
} from '../../scripts/harness/prism-log'
import { matchOperation } from '../../common/operations'
import { profileDir } from '../support/profile-files'

const ANCHORS = resolve(PROJECT_ROOT, '../shared/anchors')
const DOCUMENTS = {
  sales: resolve(ANCHORS, 'sales-ledger.openapi.subset.json'),
  webhooks: resolve(ANCHORS, 'webhooks.openapi.subset.json'),
}
const PRISM = resolve(PROJECT_ROOT, 'node_modules/.bin/prism')
const notRun =
  !existsSync(DOCUMENTS.sales) || !existsSync(DOCUMENTS.webhooks)
    ? `not run: ${ANCHORS} does not hold the two public documents (sales-ledger / webhooks .openapi.subset.json)`
    : !existsSync(PRISM)
      ? 'not run: node_modules/.bin/prism is not installed (npm ci)'
      : undefined

/** The two known defects of the extracts: the reference follows the spec, the documents are wrong. */
const DOCUMENT_DEFECTS: AcceptedViolation[] = [
  {
    name: 'invoices under ""',
    why:
      'the document declares the invoices array under a property named "" of an object; the service answers the ' +
      'array itself (anchors README: "an array of {invoicenumber, ...}")',
    side: 'response',
    path: /^\/api\/v1\/ledger\/policies\/[^/]+\/invoices$/,
    message: /^Response body must be object$/,
  },
  {
    name: 'generated document as JSON',
    why:
      'the document declares the generated main document as application/json with format binary; the service ' +
      'answers the binary document (application/pdf), as the anchors README says',
    side: 'response',
    path: /^\/api\/v1\/ledger\/sales\/policies\/[^/]+\/generated-documents$/,
    message: /^The received media type "application\/pdf" does not match/,
  },
]

/** Violations that ARE what a check tests: the one thing wrong with that probe. */
const TESTED_VIOLATIONS: AcceptedViolation[] = [
  {
    name: 'SEC-NOTOKEN / SEC-MALFORMED',
    why: 'no or a malformed bearer token is what these probes test; every other part of them is valid',
    side: 'request',
    path: /./,
    message: /^Invalid security scheme used$/,
  },
  {
    name: 'AUTH-TENANT-002',
    why: 'a sales request without the tenant header is what the check tests',
    side: 'request',
    path: /^\/api\/v1\/ledger\/schemes\/policy\/regular\/[^/]+$/,
    message: /^Request header must have required property 'x-tenant-id'$/,
  },
  {
    name: 'PL-CUST-002',
    why: 'the custom view without (some of) its identity parameters is what the check tests',
    side: 'request',
    path: /\/custom-view\/installments(\?|$)/,
    message: /^Request query must have required property '(code|documentcountry)'$/,
  },
  {
    name: 'WH-ERR-001..003',
    why: 'a subscription body without url or event is what the checks test',
    side: 'request',
    path: /^\/api\/webhook\/subscription$/,
    message: /^Request body must have required property '(url|event)'$/,
  },
]

/**
 * What Prism reports and the suite does not, on purpose (docs/contracts.md "The Prism comparison"):
 * - the requests invalid on purpose (TESTED_VIOLATIONS: the suite marks them, invalidOnPurpose, and expects their
 *   request finding);
 * - the security scheme: the suite's SEC-* and AUTH-* checks own what a missing or bad token must get; the contract
 *   checks judge parameters and bodies, not credentials.
 */
const NOT_COMPARED: AcceptedViolation[] = [
  ...TESTED_VIOLATIONS,
  {
    name: 'security scheme',
    why:
      'a missing, malformed or foreign token is what SEC-*/AUTH-* test; the contract checks do not judge ' +
      'credentials',
    side: 'request',
    path: /./,
    message: /^Invalid security scheme used$/,
  },
]

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.once('error', rej)
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => res(typeof a === 'object' && a ? a.port : 0))
    })
  })
}

interface Proxy {
  child: ChildProcess
  url: string
  log: () => string
}

async function prismProxy(document: string, upstream: string): Promise<Proxy> {
  const port = await freePort()
  const child = spawn(PRISM, ['proxy', document, upstream, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  })
  let log = ''
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()))
  const deadline = Date.now() + 120_000
  while (!log.includes('Prism is listening')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`prism proxy ${document} did not start:\n${log.slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return { child, url: `http://127.0.0.1:${port}`, log: () => log }
}

/** The run through the proxies and Prism's logs, for the comparison below (set once by the beforeAll). */
const compared: { run?: ConformanceRun; all: { service: string; v: PrismViolation }[] } = { all: [] }

describe.skipIf(notRun !== undefined)(
  'the suite through prism proxy with the public documents (independent validator)',
  () => {
    let reference: RunningReference
    const proxies: Proxy[] = []
    let run: ConformanceRun
    let violations: { service: string; v: PrismViolation }[] = []
    let all: { service: string; v: PrismViolation }[] = []
    let profileFolder: string | undefined

    beforeAll(async () => {
      reference = await startReference()
      const [sales, webhooks] = await Promise.all([
        prismProxy(DOCUMENTS.sales, reference.url),
        prismProxy(DOCUMENTS.webhooks, reference.url),
      ])
      proxies.push(sales, webhooks)
      // the suite judges the same exchanges against the same documents (contract warn: the two known defects of the
      // extracts are deviations here, so that every other check must still pass through the proxies)
      profileFolder = profileDir({
        'profile.json': {
          extends: resolve(PROJECT_ROOT, 'fixtures/targets/reference.json'),
          name: 'prism-comparison',
          openapi: [DOCUMENTS.sales, DOCUMENTS.webhooks],
          contract: 'warn',
        },
      })
      run = await runConformance({
        timeoutMs: 280_000,
        env: {
          SALES_BASE_URL: sales.url,
          WEBHOOK_BASE_URL: webhooks.url,
          AUTH_URL: `${reference.url}/api/v1/identifier`,
          TARGET_PROFILE: resolve(profileFolder, 'profile.json'),
        },
      })
      all = [
        ...parsePrismLog(sales.log()).map((v) => ({ service: 'sales', v })),
        ...parsePrismLog(webhooks.log()).map((v) => ({ service: 'webhooks', v })),
      ]
      violations = all.filter((x) => x.v.level === 'error')
      compared.run = run
      compared.all = all
    }, 420_000)

    afterAll(async () => {
      if (profileFolder) rmSync(profileFolder, { recursive: true, force: true })
      for (const p of proxies) p.child.kill('SIGTERM')
      await reference?.close()
    })

    it('passes every check through the proxies (299+)', () => {
      expect(run.failedIds).toEqual([])
      const t = run.report?.totals
      const why = run.output
        .split('\n')
        .filter((l) => /^\s*(ERRORED|BLOCKED|FAILED)|^verdict/.test(l))
        .join('\n')
      expect(t, why || run.output.slice(-3000)).toMatchObject({ failed: 0, errored: 0, blocked: 0 })
      expect(t?.passed ?? 0, run.output.slice(-3000)).toBeGreaterThanOrEqual(299)
    })

    it('sends no request that violates the documents, but for what a check tests', () => {
      const unexpected = violations.filter((x) => x.v.side === 'request' && !acceptedBy(x.v, TESTED_VIOLATIONS))
      expect(unexpected.map((x) => `${x.service} ${x.v.path} (${x.v.status}): ${x.v.message}`)).toEqual([])
    })

    it(
      'gets no response from the reference that violates the documents, but the two known defects of the ' + 'extracts',
      () => {
        const responses = violations.filter((x) => x.v.side === 'response')
        expect(
          responses
            .filter((x) => !acceptedBy(x.v, DOCUMENT_DEFECTS))
            .map((x) => `${x.service} ${x.v.path} (${x.v.status}): ${x.v.message}`),
        ).toEqual([])
        // the exceptions are live: both are seen, so a fixed document or a changed reference shows here
        expect(new Set(responses.map((x) => acceptedBy(x.v, DOCUMENT_DEFECTS)?.name))).toEqual(
          new Set(DOCUMENT_DEFECTS.map((d) => d.name)),
        )
      },
    )
  },
)

describe.skipIf(notRun !== undefined)('the Prism comparison: the suite with the same documents in its profile', () => {
  // the run and the logs of the describe above: vitest runs the describes of a file in order, in one worker
  it('reports every operation and finding kind Prism reports, but the differences docs/contracts.md lists', () => {
    const report = compared.run?.report
    const suite = new Set(
      (report?.checks ?? [])
        .filter((c) => c.id.startsWith('CT-') && (c.status === 'failed' || c.deviations.length > 0))
        .map((c) => c.id),
    )
    // an operation no document holds is listed by the suite with its count (checks.json contracts.notDescribed)
    for (const op of Object.keys(report?.contracts?.notDescribed ?? {})) suite.add(`CT-${op}-not-described`)
    const prism = new Map<string, string>()
    for (const { service, v } of compared.all) {
      if (acceptedBy(v, NOT_COMPARED)) continue
      const kind = prismKind(v)
      const op = matchOperation(v.method, v.path.split('?')[0]!)
      if (!kind || !op) continue
      prism.set(`CT-${op.id}-${kind}`, `${service} ${v.method.toUpperCase()} ${v.path} (${v.status}): ${v.message}`)
    }
    expect(prism.size, 'Prism reported nothing: the comparison would prove nothing').toBeGreaterThan(5)
    const missing = [...prism].filter(([id]) => !suite.has(id)).map(([id, seen]) => `${id}: ${seen}`)
    expect(missing).toEqual([])
    // the two known defects of the extracts are contract checks of their own here too
    expect([...suite]).toEqual(
      expect.arrayContaining(['CT-sales.policy.invoices-response', 'CT-sales.documents.generate-media-type']),
    )
  })
})

describe.runIf(notRun !== undefined)('the Prism proof', () => {
  it.skip(notRun ?? 'not run', () => {})
})
