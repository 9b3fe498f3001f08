import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { dependencyFile } from '../../common/project-root'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { clearRunReports, readTargetReports, type ChecksReport } from '../../runner/run/results/results'
import { readVerdictFile, type VerdictFile } from '../../runner/run/results/run-reports'
import { RUN_VARS } from '../../common/env-vars'

export interface ConformanceRunOptions {
  /** Suite files or folders (relative to the project); default: every suite. */
  files?: string[]
  /** Defects for the embedded reference service. */
  defects?: string[]
  /** Extra environment (e.g. SALES_BASE_URL for an external target). */
  env?: Record<string, string>
  /** Kill the run after this long. */
  timeoutMs?: number
  /** Keep the reports folder (default: removed after reading). */
  keepReports?: boolean
  /** Write into this reports folder (e.g. an earlier run's) instead of a new temporary one. */
  reportsDir?: string
}

export interface ConformanceRun {
  /** vitest's own exit code (0 or 1); the run's exit code by the project's rules is verdict.exitCode. */
  exitCode: number | null
  /** This run's verdict (reports/verdict.json, checked to carry this run's id); absent when vitest wrote none. */
  verdict?: VerdictFile
  report?: ChecksReport
  /** A multi-target run's reports (TARGET_PROFILES), by target key. */
  targets: Record<string, ChecksReport>
  failedIds: string[]
  output: string
  wallMs: number
  reportsDir: string
}

/** What configures a run (common/env-vars.ts): removed, so the caller's environment never leaks into it. */
const TARGET_VARS = RUN_VARS

/**
 * Runs `vitest run --config vitest.config.ts` as a child process (embedded reference unless
 * env says otherwise), in its own reports folder, and returns which checks failed.
 */
export async function runConformance(o: ConformanceRunOptions = {}): Promise<ConformanceRun> {
  const reportsDir = o.reportsDir ?? mkdtempSync(join(tmpdir(), 'lc-run-'))
  clearRunReports(reportsDir)
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const k of TARGET_VARS) delete env[k]
  const runId = `harness-${process.pid}-${Math.random().toString(36).slice(2, 10)}`
  Object.assign(
    env,
    {
      REPORTS_DIR: reportsDir,
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      CONFORMANCE_RUN_ID: runId,
      VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
    },
    o.env ?? {},
  )
  if (o.defects?.length) env.REFERENCE_DEFECTS = o.defects.join(',')
  const started = performance.now()
  const vitest = dependencyFile('vitest', 'vitest.mjs')
  const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.config.ts', ...(o.files ?? [])], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 180_000)
  const exitCode = await new Promise<number | null>((r) => child.on('close', (code) => r(code)))
  clearTimeout(timer)
  const wallMs = Math.round(performance.now() - started)
  const file = join(reportsDir, 'checks.json')
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ChecksReport) : undefined
  const targets = readTargetReports(join(reportsDir, 'targets'))
  const written = readVerdictFile(reportsDir)
  const verdict = written && written.runId === env.CONFORMANCE_RUN_ID ? written : undefined
  if (!o.keepReports) rmSync(reportsDir, { recursive: true, force: true })
  const failedIds = report ? report.checks.filter((c) => c.status === 'failed').map((c) => c.id) : []
  return {
    exitCode,
    ...(verdict ? { verdict } : {}),
    ...(report ? { report } : {}),
    targets,
    failedIds,
    output,
    wallMs,
    reportsDir,
  }
}
