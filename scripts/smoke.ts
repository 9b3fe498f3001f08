/**
 * npm run smoke: only the read-only suites (fixtures/suite-classes.json), safe against any target,
 * production included. Extra arguments go to vitest.
 */
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { PROJECT_ROOT } from '../helpers/config'
import { loadSuiteClasses } from '../runner/guard/suite-classes'

const files = loadSuiteClasses().readOnly
console.log(`smoke: read-only suites only: ${files.join(', ')}`)
const vitest = resolve(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs')
const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.config.ts', ...process.argv.slice(2), ...files], { cwd: PROJECT_ROOT, stdio: 'inherit' })
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s))
child.on('close', (code) => process.exit(code ?? 1))
