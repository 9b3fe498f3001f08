import { EXIT } from '../run/verdict'
import { EXIT_CODES_HELP, type Command } from '../commands/command'
import { COMMAND_ENTRIES, type CommandEntry } from './entries'
import { versionLine } from './version'
import { nearest } from '../commands/did-you-mean'
import { COMMAND_LINE_ENV, invocationOf } from '../run/guard/command-line'
import { localFaultLine, localFolders, unwritableFolderLine } from './local-folders'

/** Commands that write the reports folder (and, installed, run vitest with its cache): checked writable first. */
const WRITES_REPORTS = new Set(['run', 'acceptance', 'merge', 'report'])

export function mainHelp(commands: readonly Pick<Command, 'name' | 'summary'>[] = COMMAND_ENTRIES): string {
  const width = Math.max(...commands.map((c) => c.name.length))
  return `Usage: ledger-conformance [command] [options]     (in a clone: npm run conformance -- [options])

Conformance suite for the sales (ledger) service and the webhook subscription service.

Commands:
${commands.map((c, i) => `  ${c.name.padEnd(width)}  ${c.summary}${i === 0 ? ' (default)' : ''}`).join('\n')}

ledger-conformance <command> --help shows a command's options and environment variables;
ledger-conformance --version prints the version.

${EXIT_CODES_HELP}`
}

/**
 * ledger-conformance [command] [options]: dispatches to the command (the first of COMMAND_ENTRIES when the first
 * argument is an option or absent) and resolves to its exit code. Only the chosen command's module is imported.
 */
export async function main(
  argv: string[],
  commands: readonly (Command | CommandEntry)[] = COMMAND_ENTRIES,
): Promise<number> {
  const [first, ...rest] = argv
  if (first === '--help' || first === '-h' || first === 'help') {
    const named = first === 'help' ? commands.find((c) => c.name === rest[0]) : undefined
    process.stdout.write(`${named ? (await loaded(named)).help : mainHelp(commands)}\n`)
    return EXIT.conforms
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${versionLine()}\n`)
    return EXIT.conforms
  }
  // a path (a suite file or folder) is an argument of the default command
  const entry =
    first && !first.startsWith('-')
      ? (commands.find((c) => c.name === first) ?? (/[/.]/.test(first) ? commands[0] : undefined))
      : commands[0]
  if (!entry) {
    const near = nearest(
      first ?? '',
      commands.map((c) => c.name),
    )
    process.stderr.write(
      `ledger-conformance: unknown command '${first}'${
        near ? `. Did you mean ${near}?` : ''
      }\n\n${mainHelp(commands)}\n`,
    )
    return EXIT.usage
  }
  const args = entry === commands[0] && (!first || first.startsWith('-') || first !== entry.name) ? argv : rest
  const command = await loaded(entry)
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${command.help}\n`)
    return EXIT.conforms
  }
  // the user's own command line, for a refusal that repeats it (runner/run/guard/write-guard.ts), in this process and
  // the
  // processes the command starts
  const before = process.env[COMMAND_LINE_ENV]
  process.env[COMMAND_LINE_ENV] = JSON.stringify(invocationOf(argv, command.name))
  // the local machine's faults are blamed on it: one line naming the folder and what to change, exit 2 (issue #37)
  const folders = localFolders(args)
  try {
    if (WRITES_REPORTS.has(command.name) && !args.includes('--list')) {
      const line = unwritableFolderLine(folders.filter((f) => f.what !== 'the working folder'))
      if (line) {
        process.stderr.write(`${line}\n`)
        return EXIT.usage
      }
    }
    return await command.run(args)
  } catch (e) {
    const line = localFaultLine(e, folders)
    if (!line) throw e
    process.stderr.write(`${line}\n`)
    return EXIT.usage
  } finally {
    if (before === undefined) delete process.env[COMMAND_LINE_ENV]
    else process.env[COMMAND_LINE_ENV] = before
  }
}

/** The command itself: an entry's module is imported here, once it is chosen. */
async function loaded(c: Command | CommandEntry): Promise<Command> {
  return 'load' in c ? c.load() : c
}
