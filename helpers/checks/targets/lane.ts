import { beforeAll, describe, TestRunner } from 'vitest'

/**
 * In a generated lane entry (runner/run/targets/lanes.ts): the suite `file`, in a block of its own named by the file.
 * The block scopes the suite's hooks (its beforeAll and its target's close) and carries the file for the reports;
 * inside it the suite's checks keep the order they have in their file. `load` imports the suite module.
 */
export function suiteBlock(file: string, load: () => Promise<unknown>): void {
  describe(file, { meta: { suiteFile: file } }, async () => {
    const collector = TestRunner.getCurrentSuite()
    await load()
    if (collector.tasks.length === 0)
      throw new Error(`${file} registered no checks (was it already evaluated in this worker?)`)
  })
}

/**
 * The suite blocks of a lane run side by side: the blocks are independent of each other (each suite creates its own
 * data), so they are marked concurrent once collected. vitest has no option for "concurrent blocks whose checks stay
 * in order"; a block declared concurrent would make every check inside it concurrent.
 */
export function runSuitesSideBySide(): void {
  // vitest reads a fixture's dependencies from its first parameter, which must be an object pattern
  // biome-ignore lint/correctness/noEmptyPattern: vitest's fixture signature
  beforeAll(({}, file) => {
    for (const block of file.tasks)
      if (block.type === 'suite' && block.meta.suiteFile !== undefined) block.concurrent = true
  })
}

/** Whether the suite being collected is a block of a lane. */
export function collectingInLane(): boolean {
  const meta = TestRunner.getCurrentSuite()?.options?.meta as { suiteFile?: unknown } | undefined
  return typeof meta?.suiteFile === 'string'
}
