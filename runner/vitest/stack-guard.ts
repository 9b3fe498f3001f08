/**
 * vite's module runner installs an Error.prepareStackTrace that can itself throw (a module whose code is not a
 * string: "code.charCodeAt is not a function"). Node reads an error's stack when a stream is destroyed with it, and
 * undici destroys its socket when a request is aborted at its deadline, from inside an abort listener: the throw
 * then escapes to process.nextTick and kills the run (issue 15: a silent target surfaced as a vite startup error).
 * This wraps whatever formatter is installed so that a failing one falls back to the plain format. Idempotent.
 */
const GUARDED = Symbol.for('ledger-conformance.stack-guard')

type Prepare = (err: Error, frames: NodeJS.CallSite[]) => unknown

export function guardStackTraces(): void {
  const current = Error.prepareStackTrace as (Prepare & { [GUARDED]?: true }) | undefined
  if (current?.[GUARDED]) return
  const guarded: Prepare & { [GUARDED]?: true } = (err, frames) => {
    const now = (Error.prepareStackTrace as unknown) === guarded ? current : undefined
    try {
      if (now) return now(err, frames)
    } catch {
      // the installed formatter failed: the plain one below
    }
    return `${err.name}: ${err.message}${frames.map((f) => `\n    at ${String(f)}`).join('')}`
  }
  guarded[GUARDED] = true
  Error.prepareStackTrace = guarded
}
