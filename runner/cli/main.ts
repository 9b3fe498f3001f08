import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { PROJECT_ROOT } from '../../common/project-root'
import { EXIT } from '../verdict'
import { EXIT_CODES_HELP, type Command } from './command'
import { COMMANDS } from './commands/index'

export function mainHelp(commands: readonly Command[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => c.name.length))
  return `Usage: ledger-conformance [command] [options]     (npm run conformance -- [options])

Conformance suite for the sales (ledger) service and the webhook subscription service.

Commands:
${commands.map((c, i) => `  ${c.name.padEnd(width)}  ${c.summary}${i === 0 ? ' (default)' : ''}`).join('\n')}

ledger-conformance <command> --help shows a command's options and environment variables.

${EXIT_CODES_HELP}`
}

/** The version of this package (its package.json, installed or in a clone). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version
}

/**
 * ledger-conformance [command] [options]: dispatches to the command (the first of COMMANDS when the first argument
 * is an option or absent) and resolves to its exit code.
 */
export async function main(argv: string[], commands: readonly Command[] = COMMANDS): Promise<number> {
  const [first, ...rest] = argv
  if (first === '--help' || first === '-h' || first === 'help') {
    const named = first === 'help' ? commands.find((c) => c.name === rest[0]) : undefined
    process.stdout.write(`${named ? named.help : mainHelp(commands)}\n`)
    return EXIT.conforms
  }
  if (first === '--version') {
    process.stdout.write(`ledger-conformance ${packageVersion()}\n`)
    return EXIT.conforms
  }
  const command = first && !first.startsWith('-') ? commands.find((c) => c.name === first) : commands[0]
  if (!command) {
    // a path (a suite file or folder) is an argument of the default command
    if (first && /[/.]/.test(first)) return commands[0]!.run(argv)
    process.stderr.write(`ledger-conformance: unknown command '${first}'\n\n${mainHelp(commands)}\n`)
    return EXIT.usage
  }
  const args = command === commands[0] && (!first || first.startsWith('-') || first !== command.name) ? argv : rest
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${command.help}\n`)
    return EXIT.conforms
  }
  return command.run(args)
}
