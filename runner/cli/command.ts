/** One subcommand of `ledger-conformance` (runner/cli/commands/<name>.ts), registered in runner/cli/commands/index.ts. */
export interface Command {
  name: string
  /** One line for `ledger-conformance --help`. */
  summary: string
  /** The full `ledger-conformance <name> --help`: usage, options, environment variables, exit codes. */
  help: string
  /** Runs the command; resolves to its exit code (runner/verdict.ts EXIT). */
  run(argv: string[]): Promise<number>
}

/** The exit codes every command documents (README "Verdicts and exit codes"). */
export const EXIT_CODES_HELP = `Exit codes:
  0  CONFORMS: every selected check ran, none failed, none errored
  1  DOES NOT CONFORM: at least one requirement failed against the target (a login answering a non-JWT token too)
  2  usage or configuration error (bad option or profile, a selection that matches no check); nothing was sent
  3  INCONCLUSIVE: the run could not test (unreachable target, login refused, tool error, errored or blocked checks)`
