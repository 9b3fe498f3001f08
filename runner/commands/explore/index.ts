import { envHelp } from '../../../common/env-vars'
import { EXIT } from '../../run/verdict'
import { exploreCommandMain } from './explore-command'
import { inCallerEnv } from '../caller'
import type { Command } from '../command'
import { EXIT_CODES_HELP } from '../command'
import { TARGET_OPTIONS_HELP } from '../target-options'
import { writeOptionsHelp } from '../../run/guard/write-guard'

const HELP = `Usage: ledger-conformance explore [options]     (in a clone: npm run explore -- [options])

Stateful exploration (docs/model.md): random sequences of operations on both services, generated from the model of
their state (fast-check model-based testing). The model's invariants (WH-INV-*, SL-INV-*, PL-INV-*) are judged on
every answer after each step; a sequence that breaks one is shrunk by fast-check to a minimal one and printed as a
replay: seed, steps, each request and answer (secrets redacted), the broken invariants.

The target is the profile's (--profile or TARGET_PROFILE) with the environment's overrides, as for run. Every
sequence creates and changes data: against a target whose profile is not nonProduction: true, explore is refused
(exit 2, nothing sent) unless --allow-writes; it has no read-only mode. Then the preflight of a run: a login the
identity service refuses is exit 2, an unreachable target 3. What it prints is also written to <reports>/explore.txt.

Options:
${TARGET_OPTIONS_HELP}
${writeOptionsHelp('explore')}
  --seed N              seed of the generated sequences (default: CONFORMANCE_SEED or 1); the same seed replays
  --steps K             steps to generate in all (default 300)
  --max-sequence M      longest generated sequence (default 12)
  --time-limit-s S      no new sequence starts after S seconds (default 240)
  --steps-per-second R  at most R steps per second (default 20); polls inside a step follow the profile's polling
  -h, --help            this help

${envHelp('explore')}
  (the target as for a conformance run: the embedded reference when no URL is set)

${EXIT_CODES_HELP}`

/** ledger-conformance explore: runner/commands/explore/explore-command.ts; a tool error is INCONCLUSIVE (3). */
export const exploreCommand: Command = {
  name: 'explore',
  summary: 'random operation sequences from the model, invariants after each step, a minimal replay on failure',
  help: HELP,
  target: 'writes',
  async run(argv) {
    let code: number
    try {
      code = await inCallerEnv(() => exploreCommandMain(argv))
    } catch (e) {
      process.stderr.write(`explore could not run: ${(e as Error).stack ?? String(e)}\n`)
      return EXIT.inconclusive
    }
    return code === EXIT.conforms || code === EXIT.doesNotConform || code === EXIT.usage ? code : EXIT.inconclusive
  },
}
