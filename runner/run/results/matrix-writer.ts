import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildMatrix, type ConformanceMatrix } from './matrix'
import { matrixHtml } from './matrix-html'
import { matrixMarkdown } from './matrix-markdown'
import type { ChecksReport } from './results'
import type { TrafficLine } from '../../../helpers/client/http/traffic-file'

/** Writes <dir>/conformance.md and <dir>/conformance.html for a run; returns the matrix. */
export function writeMatrix(dir: string, report: ChecksReport, traffic: TrafficLine[]): ConformanceMatrix {
  const m = buildMatrix(report, traffic)
  writeFileSync(join(dir, 'conformance.md'), matrixMarkdown(m))
  writeFileSync(join(dir, 'conformance.html'), matrixHtml(m))
  return m
}
