// The reference service's entry point (npm run reference, the reference image): reference/cli-command.ts, whose
// exit code it ends with. `ledger-conformance reference` imports the same function.
import { referenceCli } from './cli-command'

process.exitCode = await referenceCli(process.argv.slice(2))
