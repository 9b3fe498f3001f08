import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { stageResults } from '../../runner/commands/report/stage-results'
import { stripAnalytics } from '../../runner/commands/report/strip-analytics'
import { tempDir } from '../support/temp-dir'

function report(reportsDir: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: reportsDir, FORCE_COLOR: '0' }
  delete env.ALLURE_HISTORY
  return spawnSync(process.execPath, [resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs'), 'report', ...args], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  })
}

describe('stageResults', () => {
  it('keeps only the results of the run and their attachments, with a tenant parameter in the history id', () => {
    const from = tempDir('stage')
    const to = join(from, 'out')
    try {
      const result = (uuid: string, start: number, att: string) => ({
        uuid,
        start,
        testCaseId: `tc-${uuid}`,
        historyId: `tc-${uuid}:x`,
        steps: [{ attachments: [{ source: att }] }],
        labels: [],
        parameters: [],
      })
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
    const dir = tempDir('strip')
    const f = join(dir, 'index.html')
    writeFileSync(
      f,
      `<body><div id="app"></div>\n<script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>\n   ` +
        ` <script>\n window.dataLayer = window.dataLayer || [];\n gtag('config', 'G-X', ` +
        `{});\n</script>\n<script>window.allure = {}</script></body>`,
    )
    expect(stripAnalytics(f)).toBe(1)
    const html = readFileSync(f, 'utf8')
    expect(html).not.toContain('googletagmanager')
    expect(html).toContain('<script>window.allure = {}</script>')
    rmSync(dir, { recursive: true, force: true })
  })
})

describe('npm run report', () => {
  it('says what is missing when there are no results', () => {
    const dir = tempDir('empty')
    mkdirSync(join(dir, 'x'))
    const r = report(dir)
    expect(r.status).toBe(3)
    expect(r.stderr).toContain('No Allure results at')
    rmSync(dir, { recursive: true, force: true })
  })
})
