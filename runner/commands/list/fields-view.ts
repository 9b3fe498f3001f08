import { ANSWER_SOURCES, sourceRows } from '../../../helpers/oracle/answer-sources'

/**
 * The answer source table (helpers/oracle/answer-sources.ts) as `list --fields` prints it: one line per field, or JSON.
 */
export function renderFieldSources(json: boolean): { text: string; rows: number } {
  const rows = sourceRows()
  if (json) return { text: JSON.stringify(ANSWER_SOURCES, null, 2), rows: rows.length }
  const lines: string[] = []
  let answer = ''
  for (const r of rows) {
    if (r.answer !== answer) {
      answer = r.answer
      lines.push(`${lines.length ? '\n' : ''}${answer}`)
    }
    lines.push(
      `  ${(r.path || '(the body)').padEnd(44)} ${r.source.kind.padEnd(9)} ${r.source.by.padEnd(12)} ${r.source.what}`,
    )
  }
  return { text: lines.join('\n'), rows: rows.length }
}
