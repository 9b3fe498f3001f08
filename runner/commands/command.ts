/** One subcommand of `ledger-conformance` (runner/commands/<name>.ts), registered in runner/cli/commands.ts. */
export interface Command {
  name: string
  /** One line for `ledger-conformance --help`. */
  summary: string
  /** The full `ledger-conformance <name> --help`: usage, options, environment variables, exit codes. */
  help: string
  /**
   * What the command does with a target: 'writes' (it can create or change data there: it takes --allow-writes and
   * --read-only and is guarded by runner/run/guard/write-guard.ts, WRITE_GUARDS names it), 'reads' (it sends requests
   * or
   * resolves the target's profile, and writes nothing there), 'none'. Every command that names a target takes
   * --profile and --reports (TARGET_OPTIONS) and the target variables of common/env-vars.ts.
   */
  target: 'writes' | 'reads' | 'none'
  /** Runs the command; resolves to its exit code (runner/run/verdict.ts EXIT). */
  run(argv: string[]): Promise<number>
}

/** The exit codes every command documents (README "Verdicts and exit codes"). */
export const EXIT_CODES_HELP = `Exit codes:
  0  CONFORMS: every selected check ran, none failed, none errored
  1  DOES NOT CONFORM: at least one requirement failed against the target (a login answering a non-JWT token too)
  2  usage or configuration error, nothing was tested: a bad option, profile or variable, a login refused (the
     identity service answers 401/403 to the configured credentials), a selection that matches no check, the
     production guard's refusal
  3  INCONCLUSIVE: the run could not test (unreachable target, a service that says it is unavailable, tool error,
     errored or blocked checks)`
