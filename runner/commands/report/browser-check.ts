import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
]

export interface PageExpectation {
  /** HTML file to open (file://). */
  file: string
  /** Texts the rendered page must show (e.g. the run's totals). */
  texts: string[]
  /** PNG screenshot to keep. */
  screenshot: string
}

export interface PageResult {
  file: string
  loaded: boolean
  missingTexts: string[]
  consoleErrors: string[]
  screenshot?: string
}

/** Why the browser check cannot run here (undefined when it can). */
export function browserUnavailable(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`
  // playwright-core drives it: a development dependency, absent from an installed package unless added beside it
  try {
    createRequire(import.meta.url).resolve('playwright-core')
  } catch {
    return (
      'playwright-core is not installed (a development dependency of this package: npm install --no-save ' +
      'playwright-core)'
    )
  }
  return undefined
}

/**
 * Opens each page in headless Chromium (playwright-core, the system Chromium: browser downloads
 * are not possible here), waits until every expected text is shown, collects console errors and
 * uncaught page errors, and keeps a screenshot. Never throws for a page problem: it reports it.
 */
export async function checkPages(pages: PageExpectation[], timeoutMs = 30_000): Promise<PageResult[]> {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  const results: PageResult[] = []
  try {
    for (const p of pages) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
      const consoleErrors: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text())
      })
      page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`))
      let loaded = false
      const missingTexts: string[] = []
      try {
        await page.goto(pathToFileURL(p.file).href, { waitUntil: 'load', timeout: timeoutMs })
        loaded = true
        for (const text of p.texts) {
          try {
            await page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: timeoutMs })
          } catch {
            missingTexts.push(text)
          }
        }
      } catch (e) {
        consoleErrors.push(`navigation: ${(e as Error).message.split('\n')[0]}`)
      }
      let screenshot: string | undefined
      if (loaded) {
        await page.screenshot({ path: p.screenshot, fullPage: false })
        screenshot = p.screenshot
      }
      results.push({ file: p.file, loaded, missingTexts, consoleErrors, ...(screenshot ? { screenshot } : {}) })
      await page.close()
    }
  } finally {
    await browser.close()
  }
  return results
}
