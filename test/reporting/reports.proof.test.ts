import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runConformance, type ConformanceRun } from '../../scripts/harness/run-conformance'
import { INVARIANTS } from '../../helpers/oracle/invariants'
import { INVARIANTS_FILE } from '../../runner/run/results/invariants'

let run: ConformanceRun
// the run's verdict files (environment.properties, executor.json) are written whole at the end, not recycled
const files = (dir: string) =>
  readdirSync(dir)
    .filter((f) => !['environment.properties', 'executor.json'].includes(f))
    .map((f) => join(dir, f))

beforeAll(async () => {
  run = await runConformance({ files: ['suites/auth'], keepReports: true })
}, 120_000)
afterAll(() => rmSync(run.reportsDir, { recursive: true, force: true }))

describe('reports of a conformance run', () => {
  it('prints the number of checks and the closing line', () => {
    expect(run.exitCode).toBe(0)
    expect(run.output).toMatch(/checks\s+\d+ passed, 0 failed/)
    expect(run.output).toMatch(
      /^conformance: \d+ passed, 0 failed, 0 errored, \d+ blocked, \d+ not applicable, \d+ skipped, \d+ deviation\(s\)$/m,
    )
    expect(run.output).not.toMatch(/Test Files|Tests  |unknown format|\x1b\[/)
    expect(run.output).toMatch(/verdict\s+CONFORMS/)
  })

  it('writes JUnit XML with one testcase per check', () => {
    const xml = readFileSync(join(run.reportsDir, 'junit.xml'), 'utf8')
    expect(xml).toMatch(/<testsuites /)
    expect((xml.match(/<testcase /g) ?? []).length).toBe(run.report!.checks.length)
    expect(xml).toContain('AUTH-LOGIN-001')
    // the model's invariants are checks of checks.json like the others: a testcase each, under the file defining them
    for (const i of INVARIANTS)
      expect(xml).toMatch(new RegExp(`<testcase classname="${INVARIANTS_FILE}" name="${i.id} `))
  })

  it('writes Allure results with spec labels and one step per HTTP exchange, with the exchange attached', () => {
    const results = files(join(run.reportsDir, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map(
        (f) =>
          JSON.parse(readFileSync(f, 'utf8')) as {
            name: string
            labels: { name: string; value: string }[]
            steps: { name: string; steps: { name: string; attachments: { name: string; source: string }[] }[] }[]
          },
      )
    expect(results.length).toBe(run.report!.checks.length)
    // the same entries as checks.json: the suite's checks (all of sales §5) and the model's invariants, each once
    expect(results.map((r) => r.name).sort()).toEqual(run.report!.checks.map((c) => c.title).sort())
    for (const r of results) {
      const check = run.report!.checks.find((c) => c.title === r.name)!
      const inSuite = check.file.startsWith('suites/auth/')
      expect(inSuite || check.file === INVARIANTS_FILE, `${r.name}: ${check.file}`).toBe(true)
      expect(r.labels.find((l) => l.name === 'specDocument')?.value, r.name).toBe(
        inSuite ? 'sales-service.md' : check.document,
      )
      expect(r.labels.find((l) => l.name === 'specSection')?.value, r.name).toBe(inSuite ? '§5' : check.section)
      expect(r.labels.find((l) => l.name === 'checkId')?.value, r.name).toBe(check.id)
    }
    const invariants = results.filter((r) => INVARIANTS.some((i) => r.name.startsWith(`${i.id} `)))
    expect(invariants.map((r) => r.labels.find((l) => l.name === 'checkId')?.value).sort()).toEqual(
      INVARIANTS.map((i) => i.id).sort(),
    )
    const login = results.find((r) => r.name.startsWith('AUTH-LOGIN-002'))!
    const step = login.steps.find((s) => s.name === 'POST /api/v1/identifier/login/acme → 401')
    expect(step, login.steps.map((s) => s.name).join(', ')).toBeDefined()
    const attached = step!.steps.flatMap((s) => s.attachments)
    expect(attached.map((a) => a.name)).toEqual(['exchange'])
    const exchange = JSON.parse(readFileSync(join(run.reportsDir, 'allure-results', attached[0]!.source), 'utf8')) as {
      request: { body: { password: string } }
      response: { status: number }
    }
    expect(exchange.request.body.password).toBe('[REDACTED]')
    expect(exchange.response.status).toBe(401)
  })

  it('never contains the password or an issued token', () => {
    const all = [
      ...files(run.reportsDir),
      ...files(join(run.reportsDir, 'allure-results')),
      ...files(join(run.reportsDir, 'traffic')),
    ]
      .filter((f) => !f.endsWith('allure-results') && !f.endsWith('traffic'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n')
    expect(all).not.toContain('demo-pass-4821')
    expect(all).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/)
    expect(run.output).not.toContain('demo-pass-4821')
  })

  // last: it runs again into the same folder
  it("a second run into the same folder writes over the first run's files: only its own results remain, " +
    'complete', async () => {
    const dir = join(run.reportsDir, 'allure-results')
    const before = new Map(files(dir).map((f) => [statSync(f).ino, f]))
    // every file of the folder becomes a spare, the verdict files too: a result may be written over one of them
    const spares = new Set(readdirSync(dir).map((f) => statSync(join(dir, f)).ino))
    const again = await runConformance({ files: ['suites/auth'], keepReports: true, reportsDir: run.reportsDir })
    expect(again.exitCode, again.output).toBe(0)
    const after = files(dir)
    expect(after.filter((f) => spares.has(statSync(f).ino)).length).toBe(Math.min(spares.size, after.length))
    expect(after.filter((f) => [...before.values()].includes(f))).toEqual([])
    const results = after.filter((f) => f.endsWith('-result.json'))
    expect(results.length).toBe(again.report!.checks.length)
    const sources = results
      .flatMap((f) => readFileSync(f, 'utf8').match(/"source":"[^"]+"/g) ?? [])
      .map((m) => m.slice(10, -1))
    expect(sources.length).toBeGreaterThan(0)
    expect(new Set([...sources, ...results.map((f) => f.slice(dir.length + 1))])).toEqual(
      new Set(after.map((f) => f.slice(dir.length + 1))),
    )
    expect(existsSync(join(run.reportsDir, '.allure-results-spare'))).toBe(false)
  }, 120_000)
})
