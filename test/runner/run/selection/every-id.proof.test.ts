import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../../../common/project-root'
import { loadTargetConfig, withEmbeddedOrigin } from '../../../../common/config/target-config'
import type { ChecksReport } from '../../../../runner/run/results/results'
import {
  collectCatalogue,
  collectSuiteTree,
  type CatalogueEntry,
  type CollectedBlock,
} from '../../../../runner/run/selection/catalogue'
import { selectChecks, type Criteria } from '../../../../runner/run/selection/select'
import { everySingleSelection, INVARIANTS_FILE, simulateSelection } from '../../../../runner/run/selection/verify'

/**
 * Any selection runs exactly what it names (issue 27; docs/reports.md "Selections: what runs"). Two halves, to fit CI:
 * 1. every single selection (each id, each id prefix, each cited section, each operation: about a thousand) is
 *    simulated on the test tree vitest collects, in this one process, without a request: it must run exactly the
 *    checks `--list` shows; the simulation is held to the run's own rule by one collection with a real selection;
 * 2. real runs through the CLI against the embedded reference: a batch of one id per suite file (with
 *    AUTH-LOGIN-002, a security probe and late lifecycle steps) and one run per other selection kind, each exit 0,
 *    "partial", exactly the selection, and every check with the outcome it has in a full run.
 * Measured on the shared 2-core machine (load 6-10): 8 s for the first half; the full run 42 s, the batch 43 s,
 * --section 30 s, --operation 24 s (a quiet machine: about a third of that).
 */

const target = { target: withEmbeddedOrigin(loadTargetConfig({ REPORTS_DIR: tmpdir() }), 'http://127.0.0.1:9') }
const dirs: string[] = []
const state: { catalogue?: CatalogueEntry[]; tree?: Map<string, CollectedBlock>; full?: ChecksReport } = {}

beforeAll(async () => {
  state.catalogue = await collectCatalogue(target)
  state.tree = await collectSuiteTree(target)
}, 120_000)

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function criteria(kind: 'check' | 'section' | 'operation', value: string): Criteria {
  return kind === 'check' ? { checks: [value] } : kind === 'section' ? { sections: [value] } : { operations: [value] }
}

/** One id per suite file: its last check (a late lifecycle step brings its earlier steps), and a probe of a group. */
function batchIds(catalogue: CatalogueEntry[]): string[] {
  const last = new Map<string, string>()
  for (const e of catalogue) if (e.file !== INVARIANTS_FILE) last.set(e.file, e.id)
  return [...new Set([...last.values(), 'SEC-NOTOKEN-sales.quote.create', 'AUTH-LOGIN-002'])]
}

describe('every single selection, simulated on the collected tree (no request)', () => {
  it('each id, id prefix, section and operation selected alone runs exactly what --list shows', () => {
    const catalogue = state.catalogue!
    const selections = everySingleSelection(catalogue)
    // every id of the catalogue is among them, alone
    for (const e of catalogue)
      expect(
        selections.some((s) => s.kind === 'check' && s.value === e.id),
        e.id,
      ).toBe(true)
    const problems: string[] = []
    for (const s of selections) {
      const r = selectChecks(catalogue, criteria(s.kind, s.value))
      expect(r.selected.length, `--${s.kind} ${s.value}`).toBeGreaterThan(0)
      const sim = simulateSelection(state.tree!, r)
      problems.push(...sim.problems.map((p) => `--${s.kind} ${s.value}: ${p}`))
      const listed = r.selected.filter((e) => e.file !== INVARIANTS_FILE).map((e) => e.id)
      if ([...sim.ran].sort().join() !== [...listed].sort().join())
        problems.push(`--${s.kind} ${s.value}: runs ${sim.ran.join(',')} but --list shows ${listed.join(',')}`)
    }
    expect(problems).toEqual([])
    expect(selections.length).toBeGreaterThan(catalogue.length)
  })

  it("the simulation is the run's own rule: collected with a selection, vitest defines exactly the simulated " +
    'checks', async () => {
    const catalogue = state.catalogue!
    const r = selectChecks(catalogue, { checks: batchIds(catalogue) })
    const sim = simulateSelection(state.tree!, r)
    const selected = r.selected.filter((e) => e.file !== INVARIANTS_FILE).map((e) => e.id)
    const tree = await collectSuiteTree(target, sim.files, selected)
    const defined: string[] = []
    const visit = (b: CollectedBlock): void => {
      for (const id of b.tests) defined.push(id ?? '(not a check)')
      b.blocks.forEach(visit)
    }
    for (const f of sim.files) visit(tree.get(f)!)
    expect([...defined].sort()).toEqual([...sim.ran].sort())
  }, 120_000)
})

/** The CLI as a user runs it (bin/ledger-conformance.mjs), reports in a folder of its own. */
function cli(args: string[]): Promise<{ code: number | null; out: string; report: ChecksReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'lc-select-'))
  dirs.push(dir)
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', REPORTS_DIR: dir }
  for (const k of [
    'SALES_BASE_URL',
    'TARGET_PROFILE',
    'TARGET_PROFILES',
    'CONFORMANCE_RUN_ID',
    'REFERENCE_DEFECTS',
    'LEDGER_SELECTED_CHECKS',
    'LEDGER_SELECTION',
    'AUTH_PASSWORD',
  ])
    delete env[k]
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bin/ledger-conformance.mjs'), 'run', ...args], {
      cwd: PROJECT_ROOT,
      env,
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('close', (code) =>
      done({ code, out, report: JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as ChecksReport }),
    )
  })
}

describe(
  'real runs against the embedded reference: exactly the selection, each check with its full-run ' + 'outcome',
  () => {
    it('a full run', async () => {
      const full = await cli([])
      expect(full.code, full.out.slice(-3000)).toBe(0)
      state.full = full.report
    }, 240_000)

    const runs: [string, (c: CatalogueEntry[]) => string[]][] = [
      ['one id per suite file', (c) => ['--check', batchIds(c).join(',')]],
      ['--section "sales §5"', () => ['--section', 'sales §5']],
      ['--operation sales.quote.bind', () => ['--operation', 'sales.quote.bind']],
    ]
    for (const [name, args] of runs) {
      it(`${name}: exit 0, "partial", exactly the checks --list shows, each with its full-run outcome`, async () => {
        expect(state.full, 'the full run').toBeDefined()
        const catalogue = state.catalogue!
        const a = args(catalogue)
        const listed = selectChecks(
          catalogue,
          a[0] === '--check'
            ? { checks: a[1]!.split(',') }
            : a[0] === '--section'
              ? { sections: [a[1]!] }
              : { operations: [a[1]!] },
        )
          .selected.filter((e) => e.file !== INVARIANTS_FILE)
          .map((e) => e.id)
        const r = await cli(a)
        expect(r.code, r.out.slice(-3000)).toBe(0)
        expect(r.out).toMatch(/verdict\s+CONFORMS \(partial: \d+ of \d+ checks; selection /)
        expect(r.out).not.toMatch(/No test found|error outside the checks/)
        const own = r.report.checks.filter((c) => c.file !== INVARIANTS_FILE)
        expect(own.map((c) => c.id).sort()).toEqual([...listed].sort())
        const inFull = new Map(state.full!.checks.map((c) => [c.id, c.status]))
        expect(
          own
            .filter((c) => inFull.get(c.id) !== c.status)
            .map((c) => `${c.id}: ${c.status}, full run ${inFull.get(c.id)}`),
        ).toEqual([])
      }, 240_000)
    }
  },
)
