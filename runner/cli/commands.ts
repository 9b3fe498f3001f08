import type { Command } from '../commands/command'
import { runCommand } from '../commands/run/index'
import { listCommand } from '../commands/list/index'
import { initCommand } from '../commands/init/index'
import { validateCommand } from '../commands/validate/index'
import { acceptanceCommand } from '../commands/acceptance/index'
import { reportCommand } from '../commands/report/index'
import { referenceCommand } from '../commands/reference/index'
import { exploreCommand } from '../commands/explore/index'
import { replayCommand } from '../commands/replay/index'
import { mergeCommand } from '../commands/merge/index'

/**
 * Every subcommand; adding one is one line here, one entry in ./entries.ts (what the CLI loads lazily) and its folder
 * runner/commands/<name>/. The first is the default.
 */
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
