import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runConformance } from '../../scripts/harness/run-conformance'
import { browserUnavailable, CHROMIUM, CHROMIUM_ARGS } from '../../runner/commands/report/browser-check'

/**
 * A race defect's failure in conformance.html: the timeline drawn from the finding's data (checks.json's
 * failure.timeline), as Porcupine draws one: a lane per caller, a bar per operation with what it asked and saw, the
 * linearization points of the longest order found. Opened in headless Chromium (playwright-core, the system browser).
 */
describe('the timeline of a linearizability finding in conformance.html', () => {
  it("is visible for a race defect's failure: lanes, bars, linearization points and the orders tried", async (ctx) => {
    const why = browserUnavailable()
    if (why) {
      if (process.env.CI === 'true') throw new Error(`browser test cannot run in CI: ${why}`)
      ctx.skip(`skipped: ${why}`)
    }
    const run = await runConformance({
      files: ['suites/concurrency/concurrent-subscriptions.test.ts'],
      defects: ['concurrency-update-revives-deleted'],
      keepReports: true,
    })
    const dir = run.reportsDir
    try {
      expect(run.verdict?.exitCode, run.output.slice(-3000)).toBe(1)
      const failed = run.report!.checks.filter((c) => c.status === 'failed')
      const conc = failed.find((c) => c.id === 'WH-CONC-001')
      expect(conc?.failure?.timeline?.[0], run.output.slice(-3000)).toMatchObject({
        model: 'subscription',
        result: 'illegal',
      })
      const timeline = conc!.failure!.timeline![0]!
      expect(new Set(timeline.ops.map((o) => o.caller)).size).toBeGreaterThanOrEqual(2)
      const { chromium } = await import('playwright-core')
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
      try {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
        const errors: string[] = []
        page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
        page.on('pageerror', (e) => errors.push(e.message))
        await page.goto(pathToFileURL(join(dir, 'conformance.html')).href, { waitUntil: 'load' })
        for (const c of failed.filter((x) => x.failure?.timeline)) {
          const figure = page.locator(`#f-${c.id} figure.timeline`).first()
          await figure.waitFor({ state: 'visible', timeout: 10_000 })
          const shown = c.failure!.timeline![0]!
          expect(await figure.locator('g.lane').count(), c.id).toBe(new Set(shown.ops.map((o) => o.caller)).size)
          expect(await figure.locator('g.op').count(), c.id).toBe(shown.ops.length)
          expect(await figure.locator('g.point').count(), c.id).toBe(shown.orders[0]?.order.length ?? 0)
          expect(await figure.locator('figcaption').isVisible(), c.id).toBe(true)
          expect(await figure.locator('figcaption').textContent(), c.id).toContain('NOT linearizable')
          expect(await figure.locator('.orders-tried').isVisible(), c.id).toBe(true)
          const box = await figure.locator('svg.timeline-lanes').boundingBox()
          expect(box?.width ?? 0, c.id).toBeGreaterThan(300)
          // each operation's bar says what it asked and what it saw
          for (const o of shown.ops)
            expect(await figure.locator(`g.op[data-op="${o.n}"] title`).textContent(), c.id).toContain(o.what)
        }
        await page.locator('#f-WH-CONC-001 figure.timeline').screenshot({ path: join(dir, 'timeline.png') })
        expect(errors).toEqual([])
      } finally {
        await browser.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
