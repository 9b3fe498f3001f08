import { describe, TestRunner } from 'vitest'

/**
 * In a generated multi-target entry (runner/run/targets/entries.ts): the suite `file` for target `key`.
 * The block of each target runs concurrently with the other targets' blocks; inside it, the suite's checks keep
 * their order. `load` imports the suite module for this key; it must register its checks now.
 */
export function forTarget(key: string, file: string, load: () => Promise<unknown>): void {
  describe(key, { concurrent: true, meta: { target: key } }, () => {
    describe.sequential(file, async () => {
      const collector = TestRunner.getCurrentSuite()
      await load()
      if (collector.tasks.length === 0)
        throw new Error(`${file} registered no checks for target '${key}' (was it already evaluated in this worker?)`)
    })
  })
}

/** The target key of the suite being collected, when it runs in a multi-target block. */
export function collectingTarget(): string | undefined {
  const meta = TestRunner.getCurrentSuite()?.options?.meta as { target?: unknown } | undefined
  return typeof meta?.target === 'string' ? meta.target : undefined
}
