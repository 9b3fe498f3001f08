/** npm run conformance [-- options]: `ledger-conformance run` (runner/cli/commands/run.ts; --help lists the options). */
import { main } from '../runner/cli/main'

main(['run', ...process.argv.slice(2)]).then((code) => process.exit(code))
