import { format } from 'node:util'
import { safeText } from '../../helpers/client/evidence/redact'
import { guardStackTraces } from './stack-guard'

guardStackTraces()

/**
 * Set-up file of every worker (vitest.config.ts setupFiles): console output of the checks goes through the run's
 * redactor, with control characters escaped, before vitest sends it to the main thread. Wrapped once per worker.
 */
const WRAPPED = Symbol.for('ledger-conformance.console-redacted')
const target = console as Console & { [WRAPPED]?: true }
if (!target[WRAPPED]) {
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const original = target[m].bind(target)
    target[m] = (...args: unknown[]) => original(safeText(format(...args)))
  }
  target[WRAPPED] = true
}
