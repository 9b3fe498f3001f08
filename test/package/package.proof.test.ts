import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'

// The package as a team gets it (README "Install it"): npm pack, installed into an empty folder from
// the npm cache, run there with npx: against the embedded reference, then against a URL; reports in ./reports of
// that folder and nothing written inside node_modules.
const work = mkdtempSync(join(tmpdir(), 'lc-package-'))
const app = join(work, 'app')
const cache = join(work, 'cache')
const env: NodeJS.ProcessEnv = {
  ...process.env,
  LEDGER_CONFORMANCE_CACHE: cache,
  FORCE_COLOR: '0',
  NO_COLOR: '1',
  npm_config_update_notifier: 'false',
}
for (const k of [
  'TARGET_PROFILE',
  'TARGET_PROFILES',
  'SALES_BASE_URL',
  'AUTH_URL',
  'WEBHOOK_BASE_URL',
  'TENANT',
  'AUTH_USERNAME',
  'AUTH_PASSWORD',
  'REPORTS_DIR',
  'REFERENCE_DEFECTS',
  'CONFORMANCE_RUN_ID',
  'TARGET',
  'TARGET_IMAGE',
  'ALLOW_WRITES',
])
  delete env[k]

const npx = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  spawnSync('npx', ['--no-install', 'ledger-conformance', ...args], {
    cwd: app,
    env: { ...env, ...extra },
    encoding: 'utf8',
    timeout: 240_000,
  })

/** Every file under dir changed after `since` (ms). */
function changedSince(dir: string, since: number): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (statSync(p).mtimeMs > since) out.push(p)
      if (e.isDirectory() && !e.isSymbolicLink()) walk(p)
    }
  }
  walk(dir)
  return out
}

let tarball: string
let installedAt = 0
/** What npm printed while installing the packed package (warnings included). */
let installOutput = ''
let reference: ChildProcess | undefined
/** The URL of the reference the package started (set by the 'against a URL' case, used by the recipes after it). */
let referenceUrl: string | undefined
beforeAll(() => {
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop()!
  tarball = join(work, packed)
  execFileSync('mkdir', ['-p', app])
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'a-team', private: true }))
  // warnings shown (--loglevel=warn): an EBADENGINE line is a failure of its own (below)
  const install = spawnSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn', tarball],
    { cwd: app, env, encoding: 'utf8', timeout: 600_000 },
  )
  installOutput = `${install.stdout}${install.stderr}`
  if (install.status !== 0)
    throw new Error(`npm install of the packed package failed (exit ${install.status}):\n${installOutput.slice(-3000)}`)
  installedAt = Date.now()
}, 660_000)
afterAll(() => {
  // npx runs the package's bin, which runs the reference under tsx: the whole process group goes, not npx alone
  // (killing npx left the reference listening after the tests)
  if (reference?.pid !== undefined && reference.exitCode === null) {
    try {
      process.kill(-reference.pid, 'SIGTERM')
    } catch {
      reference.kill('SIGTERM')
    }
  }
  rmSync(work, { recursive: true, force: true })
})

describe('the package, installed into an empty folder', () => {
  it(
    'packs the CLI, the suites, the reference and the requirements index, not the tests nor the development ' +
      'harnesses',
    () => {
      const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n')
      for (const f of [
        'package/bin/ledger-conformance.mjs',
        'package/runner/cli/main.ts',
        'package/suites/auth/login.test.ts',
        'package/reference/server.ts',
        'package/common/requirements.json',
        'package/vitest.config.ts',
      ]) {
        expect(files).toContain(f)
      }
      expect(files.filter((f) => f.startsWith('package/test/'))).toEqual([])
      // the development harnesses stay in the clone: every command a user runs is a module of runner/
      expect(files.filter((f) => f.startsWith('package/scripts/'))).toEqual([])
    },
  )

  it(
    'installs without an EBADENGINE warning on this Node: every dependency a consumer gets supports the engines it ' +
      'claims (package.json overrides do not reach consumers)',
    () => {
      expect(installOutput.split('\n').filter((l) => /EBADENGINE/.test(l))).toEqual([])
    },
  )

  it('npx ledger-conformance --help lists the commands and the exit codes', () => {
    const r = npx(['--help'])
    expect(r.status, r.stderr).toBe(0)
    for (const c of [
      'run',
      'list',
      'init',
      'validate',
      'acceptance',
      'report',
      'reference',
      'explore',
      'replay',
      'merge',
    ])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${c} `, 'm'))
    expect(r.stdout).toMatch(/Exit codes:\n {2}0 {2}CONFORMS/)
    const v = npx(['--version'])
    expect(v.stdout).toMatch(/^ledger-conformance \d+\.\d+\.\d+\n$/)
    const typo = npx(['run', '--chek', 'SL-LIFE'])
    expect(typo.status).toBe(2)
    expect(typo.stderr).toContain("Unknown option '--chek'. Did you mean --check?")
  })

  it(
    'npx ledger-conformance run: the whole suite against the embedded reference, CONFORMS, reports in ./reports, ' +
      'nothing written in node_modules',
    () => {
      const r = npx(['run'])
      expect(r.status, (r.stdout + r.stderr).slice(-3000)).toBe(0)
      expect(r.stdout).toMatch(/verdict {2}CONFORMS/)
      // report paths as the user types them from their folder, not relative to the package under node_modules
      expect(r.stdout).toMatch(/^reports {2}reports\/junit\.xml, /m)
      expect(r.stdout + r.stderr).not.toMatch(/npm run |unknown format|\x1b\[|Test Files /)
      for (const f of ['checks.json', 'verdict.json', 'junit.xml', 'conformance.md'])
        expect(existsSync(join(app, 'reports', f)), f).toBe(true)
      expect(changedSince(join(app, 'node_modules'), installedAt)).toEqual([])
      expect(existsSync(cache)).toBe(true)
    },
  )

  it(
    'against a URL: the reference started by the package, a profile written by init and checked by ' + 'validate',
    async () => {
      reference = spawn('npx', ['--no-install', 'ledger-conformance', 'reference', '--port', '0'], {
        cwd: app,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
      const url = await new Promise<string>((done, fail) => {
        let out = ''
        reference!.stdout!.on('data', (d: Buffer) => {
          out += d.toString()
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
          if (m) done(m[1]!)
        })
        reference!.on('close', (code) => fail(new Error(`reference exited ${code}: ${out}`)))
      })
      referenceUrl = url
      const init = npx([
        'init',
        'ci/local.jsonc',
        '--sales-url',
        url,
        '--tenant',
        'acme',
        '--username',
        'broker@acme.test',
        '--non-production',
      ])
      expect(init.status, init.stderr).toBe(0)
      const withPassword = { AUTH_PASSWORD: 'demo-pass-4821' }
      const valid = npx(['validate', 'ci/local.jsonc', '--env'], withPassword)
      expect(valid.status, valid.stderr).toBe(0)
      const r = npx(
        ['run', '--profile', 'ci/local.jsonc', '--reports', 'reports-url', 'suites/auth', 'suites/webhooks'],
        withPassword,
      )
      expect(r.status, (r.stdout + r.stderr).slice(-3000)).toBe(0)
      expect(r.stdout).toContain(url)
      expect(existsSync(join(app, 'reports-url', 'verdict.json'))).toBe(true)
      expect(r.stdout).toMatch(/^reports {2}reports-url\/junit\.xml, /m)
      expect(changedSince(join(app, 'node_modules'), installedAt)).toEqual([])
      // docs/ci.md's production recipe: a profile without nonProduction is refused unless the run says --read-only,
      // and the refusal suggests the installed CLI's command, not a script of a clone
      expect(
        npx(['init', 'ci/prod.jsonc', '--sales-url', url, '--tenant', 'acme', '--username', 'broker@acme.test']).status,
      ).toBe(0)
      const refused = npx(['run', '--profile', 'ci/prod.jsonc', '--reports', 'reports-prod'], withPassword)
      expect(refused.status, (refused.stdout + refused.stderr).slice(-2000)).toBe(2)
      // the user's own command, the profile kept (pasted, it checks the same target, not the embedded reference)
      expect(refused.stdout + refused.stderr).toContain(
        "'npx ledger-conformance run --profile ci/prod.jsonc --reports reports-prod --read-only'",
      )
      expect(refused.stdout + refused.stderr).toContain(
        "'npx ledger-conformance run --profile ci/prod.jsonc --reports reports-prod --allow-writes'",
      )
      expect(refused.stdout + refused.stderr).not.toMatch(/npm run /)
      // the same guard for explore (issue 37: it went ahead with 83 steps of writes), the profile from the variable
      // named
      const explore = npx(['explore', '--time-limit-s', '60'], { ...withPassword, TARGET_PROFILE: 'ci/prod.jsonc' })
      expect(explore.status, (explore.stdout + explore.stderr).slice(-2000)).toBe(2)
      expect(explore.stderr).toMatch(/Production guard: refusing to explore, .* No request was sent\./)
      expect(explore.stderr).toContain(
        "'npx ledger-conformance explore --time-limit-s 60 --profile ci/prod.jsonc --allow-writes'",
      )
      // and the options every command that names a target takes: known to replay, explore and acceptance alike
      for (const args of [
        ['replay', 'X-1', '--profile', 'ci/prod.jsonc', '--reports', 'none'],
        ['explore', '--profile', 'ci/prod.jsonc', '--read-only'],
        ['acceptance', '--profile', 'ci/prod.jsonc', '--read-only'],
      ]) {
        const r = npx(args, withPassword)
        expect(r.status, args.join(' ')).toBe(2)
        expect(r.stderr, args.join(' ')).not.toMatch(/Unknown option/)
      }
    },
  )

  it(
    "docs/ci.md's other recipes: acceptance against a URL (a deployment: judged, not refused), report of the URL " +
      'run',
    () => {
      expect(referenceUrl, "needs the 'against a URL' case's reference").toBeDefined()
      const withPassword = { AUTH_PASSWORD: 'demo-pass-4821' }
      // acceptance by URL, on one suite folder to keep the proof cheap (the default set is the whole suite)
      // --lenient: the profile init wrote names no second tenant nor short-lived user, so strict acceptance (the
      // default) would say those requirements untested (INCONCLUSIVE); the recipe's point here is the by-URL judgement
      const acc = npx(['acceptance', '--profile', 'ci/local.jsonc', '--suites', 'suites/auth', '--lenient'], {
        ...withPassword,
        REPORTS_DIR: 'reports-acceptance',
      })
      expect(acc.status, (acc.stdout + acc.stderr).slice(-3000)).toBe(0)
      expect(acc.stdout).toMatch(/ACCEPTED/)
      expect(acc.stdout).toContain(referenceUrl!)
      expect(acc.stdout + acc.stderr).not.toMatch(/not a tenant deployment|npm run |\.\.\/\.\.\//)
      expect(existsSync(join(app, 'reports-acceptance', 'acceptance.json'))).toBe(true)
      // report: Allure Report 3 is a dependency of the package. Its --check (the page in headless Chromium) needs
      // playwright-core, a development dependency the package does not install: the clone's CI step 75 proves it
      const rep = npx(['report', '--reports', 'reports-url'])
      expect(rep.status, (rep.stdout + rep.stderr).slice(-3000)).toBe(0)
      expect(existsSync(join(app, 'reports-url', 'allure-report', 'index.html'))).toBe(true)
      expect(rep.stdout + rep.stderr).not.toMatch(/npm run /)
      expect(changedSince(join(app, 'node_modules'), installedAt)).toEqual([])
    },
  )

  it(
    "docs/ci.md's nightly recipe: run --shard i/n --thorough in two jobs, then merge into one verdict; a missing " +
      'shard refused',
    () => {
      expect(referenceUrl, "needs the 'against a URL' case's reference").toBeDefined()
      // the nightly profile names users.expired (tokens issued already expired): --thorough probes past exp + the
      // ceiling at once, without waiting for a short-lived token (docs/ci.md "Shard and merge")
      writeFileSync(
        join(app, 'ci', 'nightly.jsonc'),
        JSON.stringify({
          extends: './local.jsonc',
          name: 'nightly',
          users: { expired: { username: 'expired@acme.test', passwordEnv: 'AUTH_PASSWORD' } },
        }),
      )
      const job = { AUTH_PASSWORD: 'demo-pass-4821', CONFORMANCE_RUN_ID: 'nightly-42' }
      // two files, one per shard (vitest splits the suite files)
      for (const i of [1, 2]) {
        const r = npx(
          [
            'run',
            '--profile',
            'ci/nightly.jsonc',
            '--thorough',
            '--shard',
            `${i}/2`,
            '--reports',
            `shards/${i}`,
            'suites/auth',
            'suites/security',
          ],
          job,
        )
        expect(r.status, (r.stdout + r.stderr).slice(-3000)).toBe(0)
        expect(r.stdout).toMatch(new RegExp(`verdict {2}CONFORMS \\(partial: \\d+ of \\d+ checks; vitest shard ${i}/2`))
        expect(existsSync(join(app, 'shards', `${i}`, 'shard.json'))).toBe(true)
      }
      const m = npx(['merge', '--reports', 'reports-nightly', 'shards/1', 'shards/2'])
      expect(m.status, (m.stdout + m.stderr).slice(-3000)).toBe(0)
      expect(m.stdout).toMatch(
        /verdict {2}CONFORMS \(partial: \d+ of \d+ checks; selection suites\/auth suites\/security\)/,
      )
      expect(m.stdout).toMatch(/^reports {2}reports-nightly\/junit\.xml, /m)
      // --thorough reached the merged report: the probe past exp + the ceiling ran (no "not probed" note)
      expect(m.stdout + m.stderr).not.toMatch(/expiry beyond the leeway not probed|npm run |\x1b\[/)
      const checks = JSON.parse(readFileSync(join(app, 'reports-nightly', 'checks.json'), 'utf8')) as {
        run: { runId: string }
        checks: { id: string; status: string }[]
      }
      expect(checks.run.runId).toBe('nightly-42')
      expect(checks.checks.filter((c) => /^AUTH-TOKEN-00[12]$/.test(c.id)).map((c) => c.status)).toEqual([
        'passed',
        'passed',
      ])
      expect(checks.checks.some((c) => c.id.startsWith('SEC-'))).toBe(true)
      const refused = npx(['merge', '--reports', 'reports-refused', 'shards/2'])
      expect(refused.status).toBe(2)
      expect(refused.stderr).toContain('shard 1/2 is missing')
      expect(existsSync(join(app, 'reports-refused'))).toBe(false)
      expect(changedSince(join(app, 'node_modules'), installedAt)).toEqual([])
    },
  )
})
