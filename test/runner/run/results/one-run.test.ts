import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { clearRunReports, RUN_REPORT_FILES } from '../../../../runner/run/results/results'
import { dropRunFromHistory } from '../../../../runner/commands/report/history'
import { RUN_ID_LABEL, stageResults } from '../../../../runner/commands/report/stage-results'
import { tempDir } from '../../../support/temp-dir'

/** A run's reports are one run (issue #37, item 5). */
describe('a new run replaces or removes every report of the earlier one', () => {
  it('acceptance.json, the HTML report and its screenshots go with the run files; the history stays', () => {
    const d = tempDir('one-run')
    for (const f of [...RUN_REPORT_FILES, 'acceptance.json', 'allure-report.png', 'conformance.png'])
      writeFileSync(join(d, f), '{"runId":"run-earlier","verdict":"REJECTED"}')
    mkdirSync(join(d, 'allure-report'))
    writeFileSync(join(d, 'allure-report', 'summary.json'), '{"stats":{"failed":3}}')
    mkdirSync(join(d, 'targets', 'a'), { recursive: true })
    mkdirSync(join(d, 'history'))
    writeFileSync(join(d, 'history', 'allure-history.jsonl'), '{}\n')
    clearRunReports(d)
    for (const f of [
      'acceptance.json',
      'allure-report.png',
      'conformance.png',
      'checks.json',
      'allure-report',
      'targets',
    ])
      expect(existsSync(join(d, f)), f).toBe(false)
    expect(readFileSync(join(d, 'history', 'allure-history.jsonl'), 'utf8')).toBe('{}\n')
  })
})

describe('the Allure history: one line per run, however often its report is made', () => {
  const line = (uuid: string, runId?: string) =>
    JSON.stringify({
      uuid,
      name: 'n',
      timestamp: 1,
      testResults: {
        a: {
          id: 'a',
          labels: [{ name: 'epic', value: 'x' }, ...(runId ? [{ name: RUN_ID_LABEL, value: runId }] : [])],
        },
      },
    })

  it('drops the lines of the run being reported again, keeps the others (older lines without a run label too)', () => {
    const d = tempDir('history')
    const file = join(d, 'h.jsonl')
    writeFileSync(
      file,
      [line('1'), line('2', 'run-a'), line('3', 'run-b'), line('4', 'run-b'), 'not json', ''].join('\n'),
    )
    expect(dropRunFromHistory(file, 'run-b')).toBe(2)
    expect(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (l.startsWith('{') ? (JSON.parse(l) as { uuid: string }).uuid : l)),
    ).toEqual(['1', '2', 'not json'])
    expect(dropRunFromHistory(file, 'run-b')).toBe(0)
    expect(dropRunFromHistory(join(d, 'absent.jsonl'), 'run-b')).toBe(0)
    expect(existsSync(join(d, 'absent.jsonl'))).toBe(false)
  })

  it('every staged result carries its run, so the history line that allure writes of it does too', () => {
    const d = tempDir('stage')
    mkdirSync(join(d, 'from'))
    writeFileSync(
      join(d, 'from', 'x-result.json'),
      JSON.stringify({ uuid: 'x', start: 5, labels: [{ name: RUN_ID_LABEL, value: 'stale' }] }),
    )
    expect(stageResults(join(d, 'from'), join(d, 'to'), { runId: 'run-7' }).results).toBe(1)
    const r = JSON.parse(readFileSync(join(d, 'to', 'x-result.json'), 'utf8')) as {
      labels: { name: string; value: string }[]
    }
    expect(r.labels).toEqual([{ name: RUN_ID_LABEL, value: 'run-7' }])
  })
})
