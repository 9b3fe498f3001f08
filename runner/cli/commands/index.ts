import type { Command } from '../command'
import { runCommand } from './run'
import { listCommand } from './list'

/** Every subcommand; adding one is one line here (and its file runner/cli/commands/<name>.ts). The first is the default. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  listCommand,
]
