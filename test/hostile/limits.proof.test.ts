import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { runConformance, type ConformanceRun } from '../../scripts/harness/run-conformance'
import { canaryHits, controlHits, markupHits } from './canaries'
import {
  CANARY_PASSWORD,
  startHostileTarget,
  type HostileTarget,
  type ScenarioName,
} from '../../scripts/hostile/server'

/**
 * The hostile-target bed, part 1 (docs/reliability.md, "Threats"): a target that redirects, floods, trickles, stays
 * silent or sends garbage. Each run must end by itself, well within 60 s, with a message naming the request, and no
 * secret of the run may appear in any file it wrote or on its console.
 */
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function hostileRun(
  scenario: ScenarioName,
  files: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ run: ConformanceRun; target: HostileTarget }> {
  const target = await startHostileTarget(scenario)
  try {
    const run = await runConformance({
      files,
      env: {
        SALES_BASE_URL: target.url,
        AUTH_URL: `${target.url}/api/v1/identifier`,
        WEBHOOK_BASE_URL: target.url,
        AUTH_PASSWORD: CANARY_PASSWORD,
        ...extraEnv,
      },
      keepReports: true,
      timeoutMs: 120_000,
    })
    dirs.push(run.reportsDir)
    return { run, target }
  } finally {
    await target.close()
  }
}

function expectClean(run: ConformanceRun, target: HostileTarget): void {
  expect(run.exitCode, 'the run ended by itself').not.toBeNull()
  expect(run.wallMs, 'within 60 s').toBeLessThan(60_000)
  expect(canaryHits(run.reportsDir, run.output, target.canaries)).toEqual([])
  expect(controlHits(run.reportsDir, run.output), 'no raw C0/C1/bidi control character').toEqual([])
  expect(markupHits(run.reportsDir), 'no live Markdown or HTML of the target').toEqual([])
  expect(run.output).not.toMatch(/\u001b\[/)
}

const SCHEMES = 'suites/sales/schemes.test.ts'

/**
 * What the run's reports say of its checks (checks.json: errors, blocked reasons, notes): the console has one line per
 * finding, the rest is here.
 */
const reported = (run: ConformanceRun) =>
  (run.report?.checks ?? []).map((c) => [c.error, c.blocked?.reason, c.note].filter(Boolean).join('\n')).join('\n')

describe('hostile target: the run ends by itself with a message naming the request', () => {
  it('a login redirected to another origin: the credentials go nowhere, the preflight stops the run', async () => {
    const { run, target } = await hostileRun('login-redirect', ['suites/auth'])
    expect(target.stolen).toBe(0)
    expect(run.output).toMatch(
      /Login failed: Login of user .* gave no usable JWT access token|the login of user .* answered 307 with no access token/,
    )
    expectClean(run, target)
  })

  it('a call redirected to another origin: not followed, reported as the status it is', async () => {
    const { run, target } = await hostileRun('call-redirect', [SCHEMES])
    expect(target.stolen).toBe(0)
    expect(run.output).toMatch(/status 302/)
    expectClean(run, target)
  })

  it('a 500 MB body: refused at the size cap while it streams, naming the request, nothing else blamed', async () => {
    const { run, target } = await hostileRun('huge-body', [SCHEMES])
    expect(run.output).toMatch(
      /response of GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ledger\/schemes\/[^ ]+ \(sales\.schemes\.get\) exceeds 16777216 bytes/,
    )
    expect(run.output).not.toMatch(/EPIPE|heap out of memory/)
    expectClean(run, target)
  })

  for (const scenario of ['trickle', '1xx-flood', 'silence'] as const) {
    it(`${scenario}: stopped at the exchange deadline (headers and body, 1xx included), naming the request`, async () => {
      const { run, target } = await hostileRun(scenario, [SCHEMES])
      // the exchange deadline (20 s, or what is left of the preflight's 30 s) names it; or the preflight's own
      // deadline
      const schemes = 'GET http:\\/\\/127\\.0\\.0\\.1:\\d+\\/api\\/v1\\/ledger\\/schemes\\/[^ ]+'
      expect(run.output).toMatch(
        new RegExp(
          `${schemes}: no HTTP response \\(LC_EXCHANGE_DEADLINE\\): no complete response within the exchange ` +
            `deadline of \\d+ ms|Preflight did not finish within 30000 ms \\(profile ` +
            `http\\.preflightDeadlineMs\\): in flight: ${schemes} \\(sales\\.schemes\\.get\\), in flight ` +
            `for \\d+ ms`,
        ),
      )
      expectClean(run, target)
    })
  }

  it('a gzip bomb: never inflated, reported as a garbage body', async () => {
    const { run, target } = await hostileRun('gzip-bomb', [SCHEMES])
    expect(run.failedIds.length).toBeGreaterThan(0)
    expect(run.output).toMatch(/non-JSON \/ truncated body \(content-type application\/json, \d+ bytes\)/)
    expectClean(run, target)
  })

  it('100 000 levels of JSON: a garbage response, no stack overflow', async () => {
    const { run, target } = await hostileRun('deep-json', [SCHEMES])
    expect(run.output).toMatch(/nested deeper than 256 levels/)
    expect(run.output).not.toMatch(/Maximum call stack/)
    expectClean(run, target)
  })

  it('invalid UTF-8 in a JSON body: a garbage response (RFC 8259)', async () => {
    const { run, target } = await hostileRun('invalid-utf8', [SCHEMES])
    expect(run.output).toMatch(/invalid UTF-8 \(RFC 8259 §8\.1\)/)
    expectClean(run, target)
  })

  it('__proto__ and constructor keys: kept in the evidence as data', async () => {
    const { run, target } = await hostileRun('proto-keys', [SCHEMES])
    expect(run.verdict).toBeDefined()
    expect(reported(run)).toMatch(/__proto__/)
    expectClean(run, target)
  })

  it(
    'a product schema with a backtracking pattern and a 300 000 000 minLength: a clear failure within ' + 'seconds',
    async () => {
      const { run, target } = await hostileRun('hostile-schema', ['suites/sales/payloads.test.ts'])
      expect(run.output).toMatch(
        /the product schema refused \(a hostile or broken schema\): \/properties\/essay\/minLength: 300000000 exceeds the generator's cap of 65536/,
      )
      expectClean(run, target)
    },
  )
})

describe('hostile target: references in its schema', () => {
  it(
    'a $ref cycle and a remote $ref: the affected checks stop naming the request and the pointers, nothing is ' +
      'fetched, the rest goes on',
    async () => {
      const { run, target } = await hostileRun('schema-refs', ['suites/sales/payloads.test.ts', 'suites/security'])
      expect(target.stolen, 'the remote reference was never fetched').toBe(0)
      expect(reported(run)).toMatch(
        /the product schema of GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ledger\/schemes\/\S+ refused \(a hostile or broken schema\): .*\/definitions\/(a|b)\/\$ref: a cycle of references/,
      )
      expect(reported(run)).toMatch(
        /\/properties\/address\/\$ref: reference "http:\/\/127\.0\.0\.1:\d+\/address\.json" is outside the schema \(remote references are never fetched\)/,
      )
      expect(run.output).not.toMatch(/Maximum call stack|Reference not found/)
      const checks = run.report?.checks ?? []
      expect(
        checks.filter((c) => c.id.startsWith('SEC-') && c.status === 'passed').length,
        'the rest of the run goes on',
      ).toBeGreaterThan(0)
      expectClean(run, target)
    },
  )
})

describe('hostile target: the run-wide circuit breaker', () => {
  it(
    'a target silent after the preflight: the run stops within 60 s as INCONCLUSIVE naming the last operations, the ' +
      'rest blocked',
    async () => {
      const { run, target } = await hostileRun('silent-after-preflight', ['suites/sales'])
      expect(run.verdict?.exitCode).toBe(3)
      expect(run.verdict?.verdict).toBe('INCONCLUSIVE')
      const cause =
        /the target at http:\/\/127\.0\.0\.1:\d+ stopped answering: \d+ exchanges in a row got no complete response within their deadline \(profile http\.breakerExpiries, 3\); the last without an answer: (GET|POST|PUT|DELETE|PATCH) http:\/\/127\.0\.0\.1:\d+\/\S+/
      expect(run.verdict?.cause).toMatch(cause)
      expect(run.output).toMatch(cause)
      const checks = run.report?.checks ?? []
      const blocked = checks.filter((c) => c.status === 'blocked' && cause.test(c.blocked?.reason ?? ''))
      expect(blocked.length, 'the checks not yet run are blocked with the cause').toBeGreaterThan(20)
      expect(
        checks.filter((c) => c.status === 'errored').length,
        'at most the exchanges that opened the breaker (and those in flight with them) error',
      ).toBeLessThan(checks.length / 4)
      expectClean(run, target)
    },
  )
})

describe('hostile target: large answers', () => {
  it(
    '15 MB on every webhook list call: the run ends by itself, fails on the answer budget of the list alone (no ' +
      'delivery check blamed), under 1 GB',
    async () => {
      // the run's peak resident memory, by the bench's probe (getrusage of the run's one process: its workers are
      // threads)
      const probeDir = mkdtempSync(join(tmpdir(), 'lc-usage-'))
      dirs.push(probeDir)
      const usageFile = join(probeDir, 'usage.json')
      const probe = join(PROJECT_ROOT, 'scripts/bench/usage-probe.cjs')
      const { run, target } = await hostileRun(
        'large-lists',
        ['suites/webhooks/delivery.test.ts', 'suites/webhooks/events.test.ts'],
        {
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${probe}`.trim(),
          LC_BENCH_USAGE_FILE: usageFile,
        },
      )
      expectClean(run, target)
      expect(run.verdict?.verdict).toBe('DOES NOT CONFORM')
      expect(run.verdict?.exitCode).toBe(1)
      expect(run.exitCode, 'vitest failed as the verdict says').toBe(1)
      const checks = run.report?.checks ?? []
      const failed = checks.filter((c) => c.status === 'failed' || c.status === 'errored')
      expect(failed.map((c) => c.id)).toEqual(expect.arrayContaining(['WH-EVT-001']))
      for (const c of failed)
        expect(c.error, c.id).toMatch(
          /deviation answer-budget:webhooks\.(events|subscriptions)\.list: the answer of GET http:\/\/127\.0\.0\.1:\d+\/api\/webhook\/(events|subscriptions) \(webhooks\.(events|subscriptions)\.list\) \(200\) is \d{8} bytes, over the budget of 1048576 bytes/,
        )
      const delivery = checks.filter((c) => c.id.startsWith('WH-DLV-'))
      expect(delivery.length).toBeGreaterThan(0)
      // WH-DLV-011 reads the event types' examples from that list: its setup is blocked by it, never failed (issue 42)
      const examples = delivery.find((c) => c.id === 'WH-DLV-011')
      expect(examples?.status).toBe('blocked')
      expect(
        delivery
          .filter((c) => c.status !== 'passed' && c !== examples)
          .map((c) => `${c.id} ${c.status}: ${c.error ?? c.blocked?.reason ?? ''}`),
      ).toEqual([])
      const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { maxRSS: number }
      expect(usage.maxRSS * 1024, 'peak resident memory of the run').toBeLessThan(1024 ** 3)
    },
  )
})
