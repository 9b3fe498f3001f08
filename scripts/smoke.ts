/**
 * npm run smoke: only the read-only suites (fixtures/suite-classes.json), safe against any target, production
 * included: `ledger-conformance run --read-only`. The verdict says it is partial.
 */
import { main } from '../runner/cli/main'

main(['run', '--read-only', ...process.argv.slice(2)]).then((code) => process.exit(code))
