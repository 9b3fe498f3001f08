import type { Command } from '../commands/command'

/**
 * A command as `ledger-conformance` knows it before it is chosen: its name, summary and target, and how to load it.
 * The CLI imports only the chosen command's module (runner/cli/main.ts): importing all ten through tsx cost 1.1 CPU s
 * at every start, `--version` included, against 0.24 s for `run` alone (docs/performance.md).
 */
export interface CommandEntry {
  name: string
  summary: string
  target: Command['target']
  load(): Promise<Command>
}

/**
 * Every subcommand, in the order of runner/cli/commands.ts COMMANDS (the first is the default), with the same
 * names, summaries and targets (test/runner/cli/main.test.ts compares them). A new command is one entry there and
 * one here.
 */
export const COMMAND_ENTRIES: readonly CommandEntry[] = [
  {
    name: 'run',
    summary: 'run the conformance checks against the target and give the verdict',
    target: 'writes',
    load: async () => (await import('../commands/run/index')).runCommand,
  },
  {
    name: 'list',
    summary: 'print the catalogue of checks (or the selected ones, or the requirements they cover) without running any',
    target: 'none',
    load: async () => (await import('../commands/list/index')).listCommand,
  },
  {
    name: 'init',
    summary: 'write a commented target profile from a few flags or questions',
    target: 'none',
    load: async () => (await import('../commands/init/index')).initCommand,
  },
  {
    name: 'validate',
    summary: 'check target profiles (schema, extends, environment overrides) without sending a request',
    target: 'none',
    load: async () => (await import('../commands/validate/index')).validateCommand,
  },
  {
    name: 'acceptance',
    summary: 'tenant acceptance: ACCEPTED or REJECTED for a tenant profile, with the failed requirements',
    target: 'writes',
    load: async () => (await import('../commands/acceptance/index')).acceptanceCommand,
  },
  {
    name: 'report',
    summary: 'HTML report (Allure Report 3) of the last run, with history and trends',
    target: 'none',
    load: async () => (await import('../commands/report/index')).reportCommand,
  },
  {
    name: 'reference',
    summary: 'the reference service standalone, with optional named defects, variations and chaos',
    target: 'none',
    load: async () => (await import('../commands/reference/index')).referenceCommand,
  },
  {
    name: 'explore',
    summary: 'random operation sequences from the model, invariants after each step, a minimal replay on failure',
    target: 'writes',
    load: async () => (await import('../commands/explore/index')).exploreCommand,
  },
  {
    name: 'replay',
    summary: "send a check's requests of the last run again and print what comes back",
    target: 'writes',
    load: async () => (await import('../commands/replay/index')).replayCommand,
  },
  {
    name: 'merge',
    summary: "merge the reports of the shards of one run (run --shard i/n) into one run's reports and verdict",
    target: 'none',
    load: async () => (await import('../commands/merge/index')).mergeCommand,
  },
]
