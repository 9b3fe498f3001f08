import { readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runConformance, type ConformanceRun } from '../../scripts/harness/run-conformance'
import { canaryHits, controlHits, filesOf, markupHits } from './canaries'
import {
  CANARY_PASSWORD,
  startHostileTarget,
  type HostileTarget,
  type ScenarioName,
} from '../../scripts/hostile/server'

/**
 * The hostile-target bed, part 2 (docs/reliability.md, "Threats"): a target that echoes the credentials and tokens it
 * gets, in every spelling, with terminal escapes; a target that floods the webhook receiver; a local process that
 * forges notifications. No secret in any file or on the console, no escape reaches the terminal, no verdict forged.
 */
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function hostileRun(
  scenario: ScenarioName,
  files: string[],
  o: { defects?: string[]; during?: (t: HostileTarget) => Promise<void> } = {},
): Promise<{ run: ConformanceRun; target: HostileTarget }> {
  const target = await startHostileTarget(scenario, o.defects ? { defects: o.defects } : {})
  try {
    const running = runConformance({
      files,
      env: {
        SALES_BASE_URL: target.url,
        AUTH_URL: `${target.url}/api/v1/identifier`,
        WEBHOOK_BASE_URL: target.url,
        AUTH_PASSWORD: CANARY_PASSWORD,
      },
      keepReports: true,
      timeoutMs: 120_000,
    })
    await o.during?.(target)
    const run = await running
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
  expect(run.output).not.toMatch(/\u001b/)
}

describe('hostile target: nothing leaks, nothing is forged', () => {
  it(
    'a target echoing the password (plain, HTML-escaped, URL-encoded, base64), the token and its parts, and ANSI ' +
      'escapes',
    async () => {
      const { run, target } = await hostileRun('echo', ['suites/auth', 'suites/security'], {
        defects: ['auth-token-not-required'],
      })
      expect(run.failedIds.length, 'failures print evidence too').toBeGreaterThan(0)
      expect(target.canaries.size).toBeGreaterThan(8)
      expectClean(run, target)
      // the escapes are there, made visible: in the reports' evidence (the console has one line per finding, no bodies)
      expect(filesOf(run.reportsDir).some((f) => readFileSync(f, 'utf8').includes('u001b[32mverdict CONFORMS'))).toBe(
        true,
      )
      // reports: folders 0700, files 0600
      for (const f of filesOf(run.reportsDir)) expect((statSync(f).mode & 0o777).toString(8), f).toBe('600')
      expect((statSync(join(run.reportsDir, 'allure-results')).mode & 0o777).toString(8)).toBe('700')
    },
  )

  it(
    'a target flooding the receiver with unsigned and oversized notifications: none counted, the signature check ' +
      'names them',
    async () => {
      const { run, target } = await hostileRun('receiver-flood', ['suites/webhooks/delivery.test.ts'])
      expect(run.failedIds).toContain('WH-DLV-004')
      expect(run.output).toMatch(/is not the sha256 HMAC/)
      expectClean(run, target)
    },
  )

  it('a local process posting forged notifications to the receiver cannot change the verdict', async () => {
    let forged = 0
    const { run, target } = await hostileRun('none', ['suites/webhooks/delivery.test.ts'], {
      during: async (t) => {
        // the attacker knows the receiver's port (it can scan) and the run's labels (run.json used to name them)
        const until = Date.now() + 20_000
        while (Date.now() < until && t.subscriberUrls.length === 0) await new Promise((r) => setTimeout(r, 20))
        const origin = t.subscriberUrls[0] ? new URL(t.subscriberUrls[0]).origin : undefined
        while (origin && Date.now() < until) {
          for (const path of ['/lc-dlv-to-extracted', '/to-export', '/', `/${'A'.repeat(22)}`]) {
            const res = await fetch(`${origin}${path}`, {
              method: 'POST',
              body: JSON.stringify({ event: 'extracted' }),
            }).catch(() => undefined)
            if (res) forged += 1
          }
          await new Promise((r) => setTimeout(r, 50))
        }
      },
    })
    expect(forged).toBeGreaterThan(0)
    expect(run.failedIds).toEqual([])
    // every delivery check passed: the forgeries counted nowhere (a partial run's verdict may be INCONCLUSIVE for
    // checks of other files it skipped, never DOES NOT CONFORM)
    const delivery = run.report?.checks.filter((c) => c.id.startsWith('WH-DLV-')) ?? []
    expect(delivery.length).toBeGreaterThan(5)
    expect(delivery.filter((c) => c.status !== 'passed').map((c) => c.id)).toEqual([])
    expect(run.verdict?.verdict, JSON.stringify(run.verdict)).not.toBe('DOES NOT CONFORM')
    expectClean(run, target)
    // the receiver paths the target was given are canaries too: in no report
    expect(target.subscriberUrls.length).toBeGreaterThan(0)
  })
})
