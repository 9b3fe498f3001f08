import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { newRunId } from '../../common/run-id'
import {
  applyRunPlan,
  plannedCallerCwd,
  plannedCatalogueSize,
  plannedSelectedChecks,
  plannedSelection,
  plannedShardBlob,
  plannedStrict,
  plannedTargets,
  plannedVitestFilter,
  runPlanVariable,
  SEALED,
  sealTargets,
  RUN_PLAN_ENV,
  RUN_PLAN_FILE,
  runPlan,
  writeRunPlan,
  type RunPlan,
} from '../../common/run-plan'
import { loadTargetConfig } from '../../common/config/target-config'
import { tempDir } from '../support/temp-dir'

describe('the run plan', () => {
  it('is written into the reports folder and read back through LEDGER_RUN_PLAN', () => {
    const dir = tempDir('run-plan')
    const plan: RunPlan = {
      version: 1,
      runId: 'run-x',
      seed: '7',
      reportsDir: dir,
      callerCwd: '/somewhere',
      profile: '/p.json',
      allowWrites: true,
      strict: true,
      thorough: true,
      selection: { label: '--check A', selected: 1, catalogue: 9 },
      selectedChecks: ['A'],
      catalogueSize: 9,
      vitestFilter: '-t x',
      shardBlob: join(dir, 'blob-1-2.json'),
    }
    const file = writeRunPlan(plan)
    expect(file).toBe(join(dir, RUN_PLAN_FILE))
    const env: NodeJS.ProcessEnv = {
      [RUN_PLAN_ENV]: file,
      LEDGER_STRICT: '0',
      LEDGER_SELECTED_CHECKS: 'B',
      REPORTS_DIR: 'elsewhere',
    }
    expect(runPlan(env)).toEqual(plan)
    // the plan wins over a stale tool variable
    expect([...plannedSelectedChecks(env)!]).toEqual(['A'])
    expect([
      plannedStrict(env),
      plannedSelection(env),
      plannedCatalogueSize(env),
      plannedVitestFilter(env),
      plannedCallerCwd(env),
      plannedShardBlob(env),
    ]).toEqual([true, plan.selection, 9, '-t x', '/somewhere', plan.shardBlob])
    applyRunPlan(env)
    expect(env).toMatchObject({
      REPORTS_DIR: dir,
      CONFORMANCE_RUN_ID: 'run-x',
      CONFORMANCE_SEED: '7',
      TARGET_PROFILE: '/p.json',
      ALLOW_WRITES: '1',
      LEDGER_THOROUGH: '1',
    })
  })

  it('without the variable, each accessor reads the tool variable it replaces (list, harnesses)', () => {
    const env: NodeJS.ProcessEnv = {
      LEDGER_STRICT: '1',
      LEDGER_SELECTED_CHECKS: 'A, B',
      LEDGER_SELECTION: '{"label":"x","selected":2,"catalogue":3}',
      LEDGER_CATALOGUE_CHECKS: '3',
      LEDGER_VITEST_FILTER: '--changed',
      CONFORMANCE_CALLER_CWD: '/c',
      LEDGER_SHARD_BLOB: '/b',
    }
    expect(runPlan(env)).toBeUndefined()
    expect(applyRunPlan(env)).toBeUndefined()
    expect([...plannedSelectedChecks(env)!]).toEqual(['A', 'B'])
    expect([
      plannedStrict(env),
      plannedSelection(env),
      plannedCatalogueSize(env),
      plannedVitestFilter(env),
      plannedCallerCwd(env),
      plannedShardBlob(env),
    ]).toEqual([true, { label: 'x', selected: 2, catalogue: 3 }, 3, '--changed', '/c', '/b'])
    expect([plannedSelectedChecks({}), plannedStrict({}), plannedSelection({}), plannedCatalogueSize({})]).toEqual([
      undefined,
      false,
      undefined,
      undefined,
    ])
  })

  it('refuses a file that is no run plan of this version', () => {
    const dir = tempDir('run-plan-bad')
    const file = writeRunPlan({
      version: 1,
      runId: 'r',
      reportsDir: dir,
      callerCwd: dir,
      allowWrites: false,
      strict: false,
      thorough: false,
    })
    const other = join(dir, 'other.json')
    writeFileSync(other, '{"version":2}')
    expect(() => runPlan({ [RUN_PLAN_ENV]: other })).toThrow(/not a run plan/)
    expect(runPlan({ [RUN_PLAN_ENV]: file })?.runId).toBe('r')
  })
})

describe('the target(s) in the run plan: resolved once by the CLI, secrets sealed', () => {
  const resolved = () => {
    const config = loadTargetConfig({
      AUTH_PASSWORD: 'pw-from-the-environment-1',
      CONFORMANCE_RUN_ID: 'run-t',
      CONFORMANCE_SEED: '5',
    })
    return { ...config, headers: { ...config.headers, extra: { 'x-api-key': 'key-of-the-tenant-42' } } }
  }

  it('holds the resolved configuration, and no secret in clear: the passwords and extra headers are sealed', () => {
    const dir = tempDir('run-plan-targets')
    const config = resolved()
    const sealed = sealTargets([{ config }])
    const file = writeRunPlan({
      version: 1,
      runId: 'run-t',
      reportsDir: dir,
      callerCwd: dir,
      allowWrites: false,
      strict: false,
      thorough: false,
      targets: sealed.targets,
      sealed: sealed.sealed,
    })
    const text = readFileSync(file, 'utf8')
    const secrets = [...Object.values(config.users).map((u) => u!.password), 'key-of-the-tenant-42']
    expect(secrets.length).toBeGreaterThan(3)
    expect(secrets.filter((s) => text.includes(s))).toEqual([])
    expect(text).not.toContain(sealed.key)
    expect(sealed.targets[0]!.config.users.primary.password).toBe(SEALED)
    // the variable carries the key; the global setup and the reporters get the configuration back as resolved
    const env = { [RUN_PLAN_ENV]: runPlanVariable(file, sealed.key) }
    expect(runPlan(env)?.runId).toBe('run-t')
    expect(plannedTargets(env)).toEqual([{ config }])
  })

  it('is not opened without the key, nor with another one: the caller then loads the profile itself', () => {
    const dir = tempDir('run-plan-key')
    const sealed = sealTargets([
      { key: 'a', config: resolved() },
      { key: 'b', config: resolved() },
    ])
    const file = writeRunPlan({
      version: 1,
      runId: 'r',
      reportsDir: dir,
      callerCwd: dir,
      allowWrites: false,
      strict: false,
      thorough: false,
      targets: sealed.targets,
      sealed: sealed.sealed,
    })
    expect(plannedTargets({ [RUN_PLAN_ENV]: runPlanVariable(file, sealed.key) })?.map((t) => t.key)).toEqual(['a', 'b'])
    expect(plannedTargets({ [RUN_PLAN_ENV]: file })).toBeUndefined()
    expect(plannedTargets({ [RUN_PLAN_ENV]: runPlanVariable(file, sealTargets([]).key) })).toBeUndefined()
    // a plan without targets (merge) or no plan at all: undefined
    const bare = writeRunPlan({
      version: 1,
      runId: 'r',
      reportsDir: tempDir('run-plan-bare'),
      callerCwd: dir,
      allowWrites: false,
      strict: false,
      thorough: false,
    })
    expect([plannedTargets({ [RUN_PLAN_ENV]: bare }), plannedTargets({})]).toEqual([undefined, undefined])
  })

  it('says what the profile wrote where the guard and the preflight tell it from the environment', () => {
    const c = resolved()
    expect(c.asWritten).toEqual({
      services: {},
      product: 'home',
      products: ['home', 'travel'],
      passwordEnv: expect.any(Object),
    })
    expect(JSON.stringify(c.asWritten)).not.toContain('pw-from-the-environment-1')
  })
})

describe('the run id', () => {
  it('is run-<date>-<6 hex>', () => {
    expect(newRunId(new Date('2026-01-02T03:04:05Z'))).toMatch(/^run-20260102-[0-9a-f]{6}$/)
  })

  it('has its formula in one place (common/run-id.ts)', () => {
    const files = execFileSync('git', ['grep', '-l', '-F', "slice(0, 10).replace(/-/g, '')", '--', '*.ts', '*.mjs'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
    expect(files.filter((f) => !f.startsWith('test/'))).toEqual(['common/run-id.ts'])
    expect(readFileSync(join(PROJECT_ROOT, 'common/run-id.ts'), 'utf8')).toContain('randomBytes(3)')
  })
})
