import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { dependencyFile } from '../../../common/project-root'

export interface GenerateOptions {
  /** Folders of Allure results. */
  results: string[]
  output: string
  /** History JSONL file: read for trends, then appended with this run. */
  historyPath: string
  historyLimit: number
  name: string
  /** Where the generated allurerc.json goes. */
  workDir: string
  projectRoot: string
}

export interface AllureSummary {
  stats: Record<string, number>
  status?: string
}

/**
 * Allure Report 3 (npm `allure`, no Java): a single-file HTML report with history.
 * The config is written as JSON (allurerc) so the history file and output are absolute paths.
 */
export async function generateAllure(
  o: GenerateOptions,
): Promise<{ exitCode: number | null; output: string; summary?: AllureSummary }> {
  mkdirSync(o.workDir, { recursive: true })
  mkdirSync(dirname(o.historyPath), { recursive: true })
  const config = {
    name: o.name,
    output: resolve(o.output),
    historyPath: resolve(o.historyPath),
    historyLimit: o.historyLimit,
    plugins: { awesome: { options: { singleFile: true, reportName: o.name, groupBy: ['epic', 'feature', 'story'] } } },
  }
  const configPath = join(o.workDir, 'allurerc.json')
  writeFileSync(configPath, JSON.stringify(config, null, 2))
  const cli = dependencyFile('allure', 'cli.js')
  const child = spawn(
    process.execPath,
    [cli, 'generate', '--config', configPath, ...o.results.map((r) => resolve(r))],
    {
      cwd: o.workDir,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const exitCode = await new Promise<number | null>((r) => child.on('close', r))
  const summaryFile = join(o.output, 'summary.json')
  const summary = existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as AllureSummary) : undefined
  return { exitCode, output, ...(summary ? { summary } : {}) }
}
