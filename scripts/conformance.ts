/**
 * npm run conformance [-- options]: `ledger-conformance run` (runner/commands/run/index.ts; --help lists the options).
 */
import { main } from '../runner/cli/main'

main(['run', ...process.argv.slice(2)]).then((code) => process.exit(code))
