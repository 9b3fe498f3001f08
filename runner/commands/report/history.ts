import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { RUN_ID_LABEL } from './stage-results'

/**
 * The Allure history (JSONL, one line per generated report, appended by `allure generate`) without the lines of one
 * run: `report` run twice on the same run appended it twice, and the trends counted it twice (issue #37, item 5).
 * A line is a run's when one of its results carries the run's label (stageResults' `runId`). Returns how many lines
 * were dropped; a file that is absent is left so, a line that is not JSON is kept as it was.
 */
export function dropRunFromHistory(file: string, runId: string): number {
  if (!existsSync(file)) return 0
  const lines = readFileSync(file, 'utf8').split('\n')
  const kept = lines.filter((line) => line.trim() === '' || !isRunLine(line, runId))
  const dropped = lines.length - kept.length
  if (dropped > 0) writeFileSync(file, kept.join('\n'))
  return dropped
}

function isRunLine(line: string, runId: string): boolean {
  let entry: { testResults?: Record<string, { labels?: { name?: string; value?: string }[] }> }
  try {
    entry = JSON.parse(line) as typeof entry
  } catch {
    return false
  }
  return Object.values(entry.testResults ?? {}).some((r) =>
    (r.labels ?? []).some((l) => l.name === RUN_ID_LABEL && l.value === runId),
  )
}
