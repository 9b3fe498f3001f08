import { readFileSync, writeFileSync } from 'node:fs'

const TAG =
  /<script async src="https:\/\/www\.googletagmanager\.com\/[^"]*"><\/script>\s*<script>[^<]*?gtag\('config'[^<]*?<\/script>/g

/**
 * The Allure 3 "awesome" page loads Google Analytics (hard-coded, no option to disable). A
 * conformance report of a customer's tenant must not call a third party when opened, and the
 * call fails offline with a console error: remove the tag. Returns how many tags were removed.
 */
export function stripAnalytics(htmlFile: string): number {
  const html = readFileSync(htmlFile, 'utf8')
  let n = 0
  const out = html.replace(TAG, () => {
    n += 1
    return ''
  })
  if (n > 0) writeFileSync(htmlFile, out)
  return n
}
