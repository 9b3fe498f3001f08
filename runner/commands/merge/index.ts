import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { mergeShards } from './merge'
import { EXIT } from '../../run/verdict'
import type { Command } from '../command'
import { EXIT_CODES_HELP } from '../command'
import { withDidYouMean } from '../did-you-mean'

const OPTIONS = { reports: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const

const HELP = `Usage: ledger-conformance merge [--reports DIR] <shard reports folder>...

Merges the reports folders of the shards of one run (each written by ledger-conformance run --shard i/n, with the
same CONFORMANCE_RUN_ID) into one run's reports: checks.json, verdict.json, conformance.md/.html, junit.xml,
allure-results and the measured traffic, written by the same reporters as an unsharded run, with one verdict over
the whole selection. A shard that could not test (its run stopped, or it left no blob report) makes the merged
verdict INCONCLUSIVE with its cause, unless a requirement failed in another shard (docs/ci.md "Shard and merge").

Options:
  --reports DIR    where the merged reports go (default $REPORTS_DIR, else ./reports); not one of the shards' folders
  -h, --help       this help

Environment: REPORTS_DIR (the merged reports folder when --reports is not given).

${EXIT_CODES_HELP}
  Refused with exit 2, nothing written: a folder that is not a shard's (no shard.json), a shard missing or given
  twice, shards of different runs (run id), numbers of shards, targets, selections or options.`

export const mergeCommand: Command = {
  name: 'merge',
  summary: "merge the reports of the shards of one run (run --shard i/n) into one run's reports and verdict",
  help: HELP,
  target: 'none',
  async run(argv) {
    let parsed
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
    } catch (e) {
      process.stderr.write(`ledger-conformance merge: ${withDidYouMean((e as Error).message, OPTIONS)}\n\n${HELP}\n`)
      return EXIT.usage
    }
    if (parsed.positionals.length === 0) {
      process.stderr.write(
        `ledger-conformance merge: give the shards' reports folders (e.g. ledger-conformance merge ` +
          `shards/*)\n\n${HELP}\n`,
      )
      return EXIT.usage
    }
    const out = resolve(process.cwd(), parsed.values.reports ?? process.env.REPORTS_DIR ?? 'reports')
    return mergeShards(parsed.positionals, out)
  },
}
