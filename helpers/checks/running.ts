import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The check whose body is running, carried through its awaits. In a multi-target run the checks of several
 * targets run at once in one worker, so vitest's global "current test" names whichever started last; the HTTP
 * exchanges of a check are attributed through this instead.
 */
const running = new AsyncLocalStorage<string>()

export function withRunningCheck<T>(testName: string, body: () => T): T {
  return running.run(testName, body)
}

/** The full name ("block > check title") of the check running here, if any. */
export function runningCheck(): string | undefined {
  return running.getStore()
}
