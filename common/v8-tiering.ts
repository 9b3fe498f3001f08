import { setFlagsFromString } from 'node:v8'

/**
 * How soon V8 compiles a hot function with its optimising compiler (TurboFan): after this many bytes of its bytecode
 * ran (V8's default is 67 584 in Node 20). A conformance run is short and broad: about 1 600 exchanges through many
 * functions that each run a few hundred times. At the default, TurboFan compiled most of them on V8's helper threads
 * and that compilation was 30 % of a full run's CPU (2.3 of 7.7 s; `--no-opt` took it to 0.4 s), for code that ran
 * a few hundred times more at most. Nine times the default leaves the functions that are really hot (undici's
 * parser, ajv's validators, the redactor's loops) optimised and the rest in V8's baseline code: a full run's CPU
 * 7.7 -> 6.5 s, its wall time the same (docs/performance.md, "V8's optimising compiler").
 */
export const INTERRUPT_BUDGET = 600_000

/** The flag for a Node process started by the CLI (`node <flags> vitest.mjs run`): it holds from the first line. */
export const TIERING_FLAGS: readonly string[] = [`--interrupt-budget=${INTERRUPT_BUDGET}`]

/**
 * Sets the budget in this process when it was started without one (vitest started directly, e.g. `npx vitest` or
 * the bench): V8's flags are the process's, so the worker threads started after this share it. A budget the user
 * gave (`node --interrupt-budget=...`, NODE_OPTIONS) is kept.
 */
export function applyTiering(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
  if (given.some((a) => a.startsWith('--interrupt-budget=') || a.startsWith('--interrupt_budget='))) return
  setFlagsFromString(TIERING_FLAGS[0] as string)
}
