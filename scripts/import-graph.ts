/**
 * npm run imports:graph [-- --json]
 *
 * Prints the import graph among the parts of the check library (helpers/; a part is a folder or file under a layer):
 * parts, arrows, arrows pointing back up the layers (client < oracle < checks; docs/architecture.md), cycles, the same
 * without type-only imports,
 * and the links between runner/ and scripts/ that import tools cannot see. Measures; asserts nothing; exit 0.
 */
import { PROJECT_ROOT } from '../common/project-root'
import { figures, MEASURED_TOPS } from './layers/import-graph'

const f = figures(PROJECT_ROOT)
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(f, null, 2)}\n`)
} else {
  const lines = [
    `helpers/: ${f.parts} parts, ${f.arrows} arrows, ${f.backArrows.length} back up the layers, ${f.cycles.length} ` +
      `cycle(s)${
        f.cycles.length ? `: the largest of ${f.cycles[0]!.length} parts ` + `(${f.cycles[0]!.join(', ')})` : ''
      }`,
    `  without type-only imports: ${f.runtime.arrows} arrows, ${f.runtime.backArrows} ` +
      `back, ${f.runtime.cycles.length} cycle(s)${
        f.runtime.cycles.length
          ? `: the largest of ${f.runtime.cycles[0]!.length} parts (${f.runtime.cycles[0]!.join(', ')})`
          : ''
      }`,
    `  back arrows: ${f.backArrows.join('; ') || 'none'}`,
    `runner -> scripts by path: ${f.runnerScripts.runnerStartsScripts.length} file(s) ` +
      `(${f.runnerScripts.runnerStartsScripts.join(', ')}); scripts -> ` +
      `runner: ${f.runnerScripts.scriptsImportRunner} import(s); scripts -> ` +
      `test: ${f.runnerScripts.scriptsImportTest.join(', ') || 'none'}`,
    `folders (${MEASURED_TOPS.join(', ')}; each folder's children as nodes): ${f.folders.measured} ` +
      `folders, ${f.folders.circles} circle(s), ${f.folders.backArrows} arrow(s) back up`,
    ...f.folders.offending.map(
      (o) =>
        `  ${o.folder}/: ${o.circles
          .map((c) => `circle (${c.join(', ')})`)
          .join('; ')}${o.circles.length && o.backArrows.length ? '; ' : ''}${
          o.backArrows.length ? `back up: ${o.backArrows.join(', ')}` : ''
        }`,
    ),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}
