import type { Command } from '../command'
import { runCommand } from './run'
import { listCommand } from './list'
import { initCommand } from './init'
import { validateCommand } from './validate'
import { acceptanceCommand } from './acceptance'
import { reportCommand } from './report'
import { referenceCommand } from './reference'
import { exploreCommand } from './explore'
import { replayCommand } from './replay'
import { mergeCommand } from './merge'

/** Every subcommand; adding one is one line here and one entry in ./entries.ts (what the CLI loads lazily), and its file runner/cli/commands/<name>.ts. The first is the default. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  listCommand,
  initCommand,
  validateCommand,
  acceptanceCommand,
  reportCommand,
  referenceCommand,
  exploreCommand,
  replayCommand,
  mergeCommand,
]
