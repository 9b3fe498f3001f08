/**
 * npm run mutation: the suite against the faithful reference, against each named defect, and under each
 * benign variation; prints the table, writes reports/mutation.json and reports/mutation.md, and exits
 * non-zero when the score is under the bar, a variation raised a false alarm, or the faithful run failed.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { reportsDir } from '../helpers/client/evidence/paths'
import { parseMutationArgs } from './mutation/args'
import { consoleReport, docsSection, withLatestResults } from './mutation/format'
import { runMutation, writeMutationReport } from './mutation/harness'

async function main(): Promise<number> {
  let args
  try {
    args = parseMutationArgs(process.argv.slice(2))
  } catch (e) {
    console.error((e as Error).message)
    return 2
  }
  let report
  try {
    report = await runMutation(args, (line) => console.log(line))
  } catch (e) {
    console.error(`mutation: ${(e as Error).message}`)
    return 2
  }
  console.log(`\n${consoleReport(report)}`)
  const files = writeMutationReport(report, args.out ?? reportsDir())
  console.log(`reports  ${files.json}, ${files.md}`)
  if (args.docs) {
    writeFileSync(args.docs, withLatestResults(readFileSync(args.docs, 'utf8'), docsSection(report)))
    console.log(`latest results written into ${args.docs}`)
  }
  return report.passed ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e)
    process.exit(2)
  },
)
