import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../support/temp-dir'
import { PROJECT_ROOT } from '../../../../common/project-root'
import type { ChecksReport } from '../../../../runner/run/results/results'
import { runConformance } from '../../../../scripts/harness/run-conformance'
import { safeMarkdown } from '../../../../helpers/client/evidence/neutralise'

/** The CLI as a user runs it (bin/ledger-conformance.mjs), from another directory, with a clean environment. */
function cli(
  args: string[],
  env: Record<string, string> = {},
  cwd = tempDir('cwd'),
): Promise<{ code: number | null; out: string; err: string; cwd: string }> {
  return new Promise((done) => {
    const e: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env }
    for (const k of [
      'SALES_BASE_URL',
      'TARGET_PROFILE',
      'TARGET_PROFILES',
      'REPORTS_DIR',
      'CONFORMANCE_RUN_ID',
      'REFERENCE_DEFECTS',
      'LEDGER_SELECTED_CHECKS',
      'LEDGER_SELECTION',
    ])
      if (!(k in env)) delete e[k]
    const child = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs'), ...args], {
      cwd,
      env: e,
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('close', (code) => done({ code, out, err, cwd }))
  })
}

/** A reports folder as an earlier green run left it. */
function staleReports(): string {
  const dir = tempDir('stale')
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ runId: 'run-earlier', salesBaseUrl: 'http://earlier.test' }))
  for (const f of ['checks.json', 'verdict.json'])
    writeFileSync(
      join(dir, f),
      JSON.stringify({ run: { runId: 'run-earlier' }, runId: 'run-earlier', verdict: 'CONFORMS', exitCode: 0 }),
    )
  writeFileSync(join(dir, 'conformance.md'), '# Conformance matrix — CONFORMS\nrun-earlier\n')
  writeFileSync(join(dir, 'acceptance.json'), JSON.stringify({ runId: 'run-earlier' }))
  mkdirSync(join(dir, 'allure-results'))
  return dir
}

function expectOnlyThisRun(dir: string, runId: string): void {
  for (const f of ['verdict.json', 'checks.json', 'conformance.md', 'conformance.html', 'junit.xml', 'run.json']) {
    const text = readFileSync(join(dir, f), 'utf8')
    expect(text, f).toContain(runId)
    expect(text, f).not.toContain('run-earlier')
    expect(text, f).not.toMatch(/"verdict": "CONFORMS"|— CONFORMS|value="CONFORMS"/)
  }
}

describe('ledger-conformance run: verdicts and exit codes', () => {
  it("an unreachable target: exit 3, every report INCONCLUSIVE with the cause and this run's id, said once, no " +
    'vitest noise', async () => {
    const dir = staleReports()
    const r = await cli(['run'], {
      SALES_BASE_URL: 'http://127.0.0.1:1',
      REPORTS_DIR: dir,
      CONFORMANCE_RUN_ID: 'proof-unreachable',
    })
    expect(r.code, r.out + r.err).toBe(3)
    expect(r.out + r.err).toMatch(
      /verdict {2}INCONCLUSIVE \(Target unreachable: SALES_BASE_URL=http:\/\/127\.0\.0\.1:1/,
    )
    expect((r.out + r.err).match(/Target unreachable/g)).toHaveLength(1)
    expect(r.out + r.err).not.toMatch(/No test files found|Unhandled Error|configLoader/)
    expectOnlyThisRun(dir, 'proof-unreachable')
    const checks = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as ChecksReport
    expect(checks).toMatchObject({ verdict: 'INCONCLUSIVE', exitCode: 3 })
    expect(checks.cause).toMatch(/unreachable/)
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/errors="1"/)
  }, 240_000)

  it('a password the embedded reference refuses (the stop is in the global setup): exit 2, the cause said once, in ' +
    'the verdict, with no vitest noise', async () => {
    const dir = staleReports()
    const r = await cli(['run'], {
      AUTH_PASSWORD: 'not-the-password',
      REPORTS_DIR: dir,
      CONFORMANCE_RUN_ID: 'proof-refused',
    })
    const all = r.out + r.err
    expect(r.code, all).toBe(2)
    expect(all).toMatch(
      /verdict {2}CONFIGURATION ERROR \(.*cannot log in: POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/identifier\/login\/acme answered 401/,
    )
    expect(all.match(/cannot log in/g)).toHaveLength(1)
    expect(all).not.toMatch(/No test files found|Unhandled Error|include: /)
    expectOnlyThisRun(dir, 'proof-refused')
  }, 240_000)

  it('the same stop inside vitest (the harness runs vitest directly) is reported as this run, never the earlier ' +
    'one', async () => {
    const dir = staleReports()
    const run = await runConformance({
      files: ['suites/auth'],
      env: { SALES_BASE_URL: 'http://127.0.0.1:1' },
      reportsDir: dir,
      keepReports: true,
    })
    expect(run.verdict).toMatchObject({ verdict: 'INCONCLUSIVE', exitCode: 3 })
    expectOnlyThisRun(dir, run.verdict!.runId!)
  }, 240_000)

  it("--check NO-SUCH exits 2 with the nearest matches (--check SL-LFE points at SL-LIFE) and keeps the last run's " +
    'reports', async () => {
    const dir = staleReports()
    const before = readFileSync(join(dir, 'verdict.json'), 'utf8')
    const r = await cli(['run', '--check', 'SL-LFE'], { REPORTS_DIR: dir })
    expect(r.code, r.out + r.err).toBe(2)
    expect(r.err).toMatch(/matches no check of the \d+ in the catalogue; nearest: --check SL-LIFE/)
    expect(readFileSync(join(dir, 'verdict.json'), 'utf8')).toBe(before)
  }, 240_000)

  it('--check SL-LIFE exits 0 and says "partial" in the console and the matrix; reports go to the caller\'s ' +
    './reports', async () => {
    const r = await cli(['run', '--check', 'SL-LIFE'])
    expect(r.code, r.out + r.err).toBe(0)
    const line = /verdict\s+(CONFORMS \(partial: (\d+) of (\d+) checks; selection --check SL-LIFE\))/.exec(r.out)
    expect(line, r.out).not.toBeNull()
    expect(Number(line![3])).toBeGreaterThanOrEqual(299)
    const md = readFileSync(join(r.cwd, 'reports', 'conformance.md'), 'utf8')
    // the matrix is Markdown: the label's punctuation is escaped by the one rule
    // (helpers/client/evidence/neutralise.ts)
    expect(md).toContain(safeMarkdown(line![1]!))
    const checks = JSON.parse(readFileSync(join(r.cwd, 'reports', 'checks.json'), 'utf8')) as ChecksReport
    // the model's invariants are judged on every run's answers and listed beside the selected checks (docs/model.md)
    const own = checks.checks.filter((c) => c.file !== 'helpers/oracle/invariants.ts')
    expect(own.map((c) => c.id).filter((id) => !id.startsWith('SL-LIFE'))).toEqual([])
    expect(own.length).toBe(Number(line![2]))
    // from a report to the code in one hop: every check names the line of its declaration in its suite file (in a lane)
    expect(checks.checks.filter((c) => !c.line).map((c) => c.id)).toEqual([])
  }, 240_000)

  it('-- --shard=1/4 is partial everywhere: console, verdict.json, the matrix (job summary), JUnit ' +
    'properties', async () => {
    const r = await cli(['run', '--', '--shard=1/4'])
    expect(r.code, r.out + r.err).toBe(0)
    const line = /verdict\s+(CONFORMS \(partial: \d+ of (\d+) checks; vitest shard 1\/4\))/.exec(r.out)
    expect(line, r.out).not.toBeNull()
    expect(Number(line![2])).toBeGreaterThanOrEqual(299)
    const dir = join(r.cwd, 'reports')
    expect(JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8'))).toMatchObject({
      label: line![1],
      selection: { why: 'vitest shard 1/4' },
    })
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain(safeMarkdown(line![1]!))
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
    expect(junit).toContain(`name="verdict.line" value="${line![1]}"`)
    expect(junit).toMatch(/name="selection" value="vitest shard 1\/4 \(\d+ of \d+ checks\)"/)
  }, 240_000)

  it('--list lists every check (>= 299), one line each, without a target or a request', async () => {
    const r = await cli(['--list'], { SALES_BASE_URL: 'http://127.0.0.1:1' })
    expect(r.code, r.err).toBe(0)
    const lines = r.out.trim().split('\n')
    expect(lines.length).toBeGreaterThanOrEqual(299)
    for (const l of lines) expect(l).toMatch(/^[A-Z]+-\S+\s+(sales-service|webhook-subscriptions)\.md §\d.*\s{2}\S/)
    const section = await cli(['list', '--section', 'webhook-subscriptions.md §6'])
    expect(section.out.trim().split('\n').length).toBeGreaterThanOrEqual(8)
  }, 240_000)
})
