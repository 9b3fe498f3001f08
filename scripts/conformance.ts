/**
 * npm run conformance [-- --allow-writes] [vitest arguments]: the conformance run.
 * --allow-writes is the operator's consent to create and change data on a target that the profile does not
 * mark nonProduction (it sets ALLOW_WRITES=1 for the production guard); every other argument goes to vitest.
 */
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { PROJECT_ROOT } from '../helpers/config'

const args = process.argv.slice(2)
const env = { ...process.env }
if (args.includes('--allow-writes')) env.ALLOW_WRITES = '1'
const rest = args.filter((a) => a !== '--allow-writes')
const vitest = resolve(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs')
const child = spawn(process.execPath, [vitest, 'run', '--config', 'vitest.config.ts', ...rest], { cwd: PROJECT_ROOT, env, stdio: 'inherit' })
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s))
child.on('close', (code) => process.exit(code ?? 1))
