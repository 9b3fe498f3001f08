/**
 * npm run mutation: the suite against the faithful reference, against each named defect, and under each
 * benign variation; prints the table, writes reports/mutation.json and reports/mutation.md, and exits
 * non-zero when the score is under the bar, a variation raised a false alarm, or the faithful run failed.
 * With --fields or --fields-sample N: the field sensitivity instead (docs/mutation.md "Field sensitivity").
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { reportsDir } from '../common/report-paths'
import { parseMutationArgs, type MutationArgs } from './mutation/args'
import { consoleReport, docsSection, withLatestResults } from './mutation/format'
import { runMutation, writeMutationReport } from './mutation/harness'
import { fieldConsoleReport, writeFieldReport } from './mutation/fields/format'
import { runFieldSensitivity } from './mutation/fields/harness'

async function main(): Promise<number> {
  let args
  try {
    args = parseMutationArgs(process.argv.slice(2))
  } catch (e) {
    console.error((e as Error).message)
    return 2
  }
  if (args.fields) return await fieldMode(args)
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

/**
 * --fields / --fields-sample N: the field sensitivity (scripts/mutation/fields/); writes
 * reports/mutation/field-sensitivity.{json,md}.
 */
async function fieldMode(args: MutationArgs): Promise<number> {
  const f = args.fields!
  let report
  try {
    report = await runFieldSensitivity(
      {
        mode: f.mode,
        ...(f.sampleSize !== undefined ? { sampleSize: f.sampleSize } : {}),
        sampleSeed: f.sampleSeed,
        batch: args.batch,
        parallel: args.parallel,
        timeoutMs: args.timeoutMs,
        failOnMiss: f.failOnMiss,
        quick: !f.full,
        ...(f.bar !== undefined ? { bar: f.bar } : {}),
        ...(args.files ? { files: args.files } : {}),
        ...(f.free ? { free: f.free } : {}),
        ...(f.operations ? { operations: f.operations } : {}),
      },
      (line) => console.log(line),
    )
  } catch (e) {
    console.error(`mutation --fields: ${(e as Error).message}`)
    return 2
  }
  console.log(`\n${fieldConsoleReport(report)}`)
  const files = writeFieldReport(report, args.out ?? join(reportsDir(), 'mutation'))
  console.log(`reports  ${files.json}, ${files.md}, ${files.map}`)
  return report.passed ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e)
    process.exit(2)
  },
)
