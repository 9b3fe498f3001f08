import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../helpers/config'
import { runConformance } from '../../scripts/harness/run-conformance'
import { browserUnavailable } from '../../scripts/report/browser-check'
import { stageResults } from '../../scripts/report/stage-results'
import { stripAnalytics } from '../../scripts/report/strip-analytics'

function report(reportsDir: string, ...args: string[]) {
  const tsx = resolve(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs')
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: reportsDir, FORCE_COLOR: '0' }
  delete env.ALLURE_HISTORY
  return spawnSync(process.execPath, [tsx, 'scripts/report.ts', ...args], { cwd: PROJECT_ROOT, env, encoding: 'utf8', timeout: 120_000 })
}

describe('stageResults', () => {
  it('keeps only the results of the run and their attachments, with a tenant parameter in the history id', () => {
    const from = mkdtempSync(join(tmpdir(), 'lc-stage-'))
    const to = join(from, 'out')
    try {
      const result = (uuid: string, start: number, att: string) => ({ uuid, start, testCaseId: `tc-${uuid}`, historyId: `tc-${uuid}:x`, steps: [{ attachments: [{ source: att }] }], labels: [], parameters: [] })
      writeFileSync(join(from, 'old-result.json'), JSON.stringify(result('old', 1000, 'a-old-attachment.json')))
      writeFileSync(join(from, 'new-result.json'), JSON.stringify(result('new', 5000, 'a-new-attachment.json')))
      writeFileSync(join(from, 'a-old-attachment.json'), '{}')
      writeFileSync(join(from, 'a-new-attachment.json'), '{}')
      const s = stageResults(from, to, { since: 4000, tenant: 'globex' })
      expect(s).toMatchObject({ results: 1, attachments: 1, skippedOlder: 1 })
      expect(readdirSync(to).sort()).toEqual(['a-new-attachment.json', 'new-result.json'])
      const r = JSON.parse(readFileSync(join(to, 'new-result.json'), 'utf8'))
      expect(r.parameters).toEqual([{ name: 'tenant', value: 'globex' }])
      expect(r.labels).toEqual([{ name: 'tenant', value: 'globex' }])
      expect(r.historyId).toMatch(/^tc-new:[0-9a-f]{32}$/)
      const other = stageResults(from, join(from, 'out2'), { since: 4000, tenant: 'acme' })
      expect(other.results).toBe(1)
      expect(JSON.parse(readFileSync(join(from, 'out2', 'new-result.json'), 'utf8')).historyId).not.toBe(r.historyId)
    } finally {
      rmSync(from, { recursive: true, force: true })
    }
  })
})

describe('stripAnalytics', () => {
  it('removes the third-party analytics tag of the Allure page and nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-strip-'))
    const f = join(dir, 'index.html')
    writeFileSync(f, `<body><div id="app"></div>\n<script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>\n    <script>\n window.dataLayer = window.dataLayer || [];\n gtag('config', 'G-X', {});\n</script>\n<script>window.allure = {}</script></body>`)
    expect(stripAnalytics(f)).toBe(1)
    const html = readFileSync(f, 'utf8')
    expect(html).not.toContain('googletagmanager')
    expect(html).toContain('<script>window.allure = {}</script>')
    rmSync(dir, { recursive: true, force: true })
  })
})

describe('npm run report', () => {
  it('builds the Allure report of the last run, with history, that headless Chromium loads without console errors', async (ctx) => {
    const why = browserUnavailable()
    if (why) {
      if (process.env.CI === 'true') throw new Error(`browser test cannot run in CI: ${why}`)
      console.warn(`browser test skipped: ${why}`)
      ctx.skip(`skipped: ${why}`)
    }
    const run = await runConformance({ files: ['suites/auth'], keepReports: true })
    const dir = run.reportsDir
    try {
      expect(run.exitCode, run.output.slice(-2000)).toBe(0)
      const first = report(dir, '--check')
      expect(first.status, first.stdout + first.stderr).toBe(0)
      const total = run.report!.checks.length
      expect(first.stdout).toContain(`total ${total}: ${total} passed`)
      expect(first.stdout.match(/browser OK /g)).toHaveLength(2)
      expect(existsSync(join(dir, 'allure-report', 'index.html'))).toBe(true)
      expect(readFileSync(join(dir, 'allure-report', 'index.html'), 'utf8')).not.toContain('googletagmanager')
      expect(existsSync(join(dir, 'allure-report.png'))).toBe(true)
      expect(existsSync(join(dir, 'conformance.png'))).toBe(true)
      // a second report appends to the same history file: that is what the trends are built from
      const second = report(dir)
      expect(second.status, second.stderr).toBe(0)
      const history = readFileSync(join(dir, 'history', 'allure-history.jsonl'), 'utf8').trim().split('\n')
      expect(history).toHaveLength(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('says what is missing when there are no results', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-empty-'))
    mkdirSync(join(dir, 'x'))
    const r = report(dir)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('No Allure results at')
    rmSync(dir, { recursive: true, force: true })
  })
})
