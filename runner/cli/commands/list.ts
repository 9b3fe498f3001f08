import type { Command } from '../command'
import { runConformance } from './run'

const HELP = `Usage: ledger-conformance list [selection options]     (npm run conformance -- --list [selection options])

Prints one line per selected check: id  document §section  requirement. Sends no request and needs no target: the
suites are collected without running (with the profile's products when TARGET_PROFILE is given, else the reference
profile's). The count goes to stderr.

Selection options: --check <id or prefix>[,...]  --section "<document> §N"  --operation <operationId>
  --read-only  [suite files or folders]   (ledger-conformance run --help explains each)

Exit codes:
  0  the list was printed
  2  usage error, or a selection that matches no check (the nearest matches are printed)`

export const listCommand: Command = {
  name: 'list',
  summary: 'print the catalogue of checks (or the selected ones) without running any',
  help: HELP,
  run: (argv) => runConformance(['--list', ...argv]),
}
