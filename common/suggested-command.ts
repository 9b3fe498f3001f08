import { INSTALLED } from './project-root'

/**
 * A command to suggest in a message, one that exists where the tool runs: `npx ledger-conformance <args>` for an
 * installed package (no npm scripts there), the project's npm script in a clone.
 */
export function suggestedCommand(args: string, inClone: string, installed: boolean = INSTALLED): string {
  return installed ? `npx ledger-conformance ${args}` : inClone
}
