import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { CANARY_PASSWORD, startHostileTarget, type HostileTarget } from '../../scripts/hostile/server'
import { canaryHits, controlHits } from './canaries'
import { tempDir } from '../support/temp-dir'

/**
 * One redaction for every output of every command (issue #37, item 2): against the echoing hostile target (the
 * password in every encoding of scripts/hostile/encodings.ts, MIME-wrapped base64 included, the token and its parts,
 * webhook secrets), the run (two shards), merge, replay --allow-writes (it re-sends the POST that receives a new
 * webhook secret), report (the HTML report re-emits the results), acceptance and explore: no canary in anything any of
 * them
 * printed or wrote, as written or across a line break.
 */
let target: HostileTarget
const RUN_ID = `every-command-${process.pid}`
const FILES = ['suites/webhooks/lifecycle.test.ts', 'suites/webhooks/errors.test.ts']

beforeAll(async () => {
  target = await startHostileTarget('echo', { defects: ['webhooks-updated-at-missing'] })
})
afterAll(async () => {
  await target?.close()
})

interface Ran {
  code: number | null
  output: string
}

/** The CLI as a user runs it (bin/ledger-conformance.mjs), against the hostile target, with a clean environment. */
function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((done) => {
    const e: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
    for (const k of [
      'TARGET_PROFILE',
      'TARGET_PROFILES',
      'REPORTS_DIR',
      'REFERENCE_DEFECTS',
      'LEDGER_SELECTED_CHECKS',
      'LEDGER_SELECTION',
      'TENANT',
      'AUTH_USERNAME',
      'PRODUCT',
    ])
      delete e[k]
    Object.assign(
      e,
      {
        SALES_BASE_URL: target.url,
        AUTH_URL: `${target.url}/api/v1/identifier`,
        WEBHOOK_BASE_URL: target.url,
        AUTH_PASSWORD: CANARY_PASSWORD,
        CONFORMANCE_RUN_ID: RUN_ID,
      },
      env,
    )
    const child = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs'), ...args], {
      cwd,
      env: e,
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, output })
    })
  })
}

function expectNoLeak(what: string, dir: string | undefined, ran: Ran): void {
  const empty = tempDir('no-files')
  expect(
    canaryHits(dir ?? empty, ran.output, target.canaries),
    `${what}: a secret in what it wrote or printed`,
  ).toEqual([])
  expect(controlHits(dir ?? empty, ran.output), `${what}: a raw control character`).toEqual([])
}

describe('every command against the echoing hostile target: no secret in any output, in any encoding', () => {
  it('run (two shards), merge, replay --allow-writes and report', async () => {
    const cwd = tempDir('every-command')
    const shards = [join(cwd, 'shard-1'), join(cwd, 'shard-2')]
    const runs = await Promise.all(
      shards.map((dir, i) => cli(['run', '--shard', `${i + 1}/2`, '--reports', dir, ...FILES], cwd)),
    )
    for (const [i, r] of runs.entries()) {
      expect(r.code, r.output).not.toBeNull()
      expect(r.output, 'the echo reached the reports: failures print evidence').toMatch(/FAIL|failed/i)
      expectNoLeak(`run --shard ${i + 1}/2`, shards[i], r)
    }
    expect(target.canaries.size, 'the target saw the password, tokens and webhook secrets').toBeGreaterThan(20)

    const merged = join(cwd, 'merged')
    const merge = await cli(['merge', ...shards, '--reports', merged], cwd)
    expect(existsSync(join(merged, 'checks.json')), merge.output).toBe(true)
    expectNoLeak('merge', merged, merge)

    const before = target.canaries.size
    const replay = await cli(['replay', 'WH-LIFE-001', '--allow-writes', '--reports', merged], cwd)
    expect(replay.code, replay.output).toBe(0)
    expect(replay.output).toMatch(/POST .*\/api\/webhook\/subscription/)
    expect(replay.output).toMatch(/"secret": "\[REDACTED\]"/)
    expect(target.canaries.size, 'the re-sent POST received a new webhook secret').toBeGreaterThan(before)
    expectNoLeak('replay --allow-writes', merged, replay)

    const report = await cli(['report', '--reports', merged], cwd)
    expect(report.code, report.output).toBe(0)
    expect(readdirSync(join(merged, 'allure-report')).length).toBeGreaterThan(0)
    expectNoLeak('report', merged, report)
  }, 600_000)

  it('acceptance', async () => {
    const cwd = tempDir('every-command-acceptance')
    const profile = join(cwd, 'tenant.json')
    writeFileSync(
      profile,
      JSON.stringify({
        name: 'hostile',
        tenant: 'acme',
        nonProduction: true,
        services: { salesBaseUrl: target.url, authUrl: `${target.url}/api/v1/identifier`, webhookBaseUrl: target.url },
        credentials: { username: 'broker@acme.test', passwordEnv: 'AUTH_PASSWORD' },
      }),
    )
    const reports = join(cwd, 'reports')
    const acceptance = await cli(['acceptance', '--profile', profile, '--suites', FILES.join(','), '--lenient'], cwd, {
      REPORTS_DIR: reports,
      CONFORMANCE_RUN_ID: `${RUN_ID}-acceptance`,
    })
    expect(acceptance.code, acceptance.output).not.toBeNull()
    expect(readFileSync(join(reports, 'acceptance.json'), 'utf8')).toMatch(/REJECTED|ACCEPTED/)
    expectNoLeak('acceptance', reports, acceptance)
  }, 300_000)

  it('explore', async () => {
    const cwd = tempDir('every-command-explore')
    const explore = await cli(
      ['explore', '--seed', '3', '--steps', '30', '--max-sequence', '6', '--time-limit-s', '40'],
      cwd,
    )
    expect(explore.code, explore.output).not.toBeNull()
    expect(explore.output).toMatch(/explore: target/)
    expectNoLeak('explore', existsSync(join(cwd, 'reports')) ? join(cwd, 'reports') : undefined, explore)
  }, 240_000)
})
