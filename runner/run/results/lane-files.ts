import { resolve } from 'node:path'
import type { RunnerTestFile, RunnerTask } from 'vitest'

type AnyTask = RunnerTask & { tasks?: AnyTask[] }

/** The task tree of a reported module (vitest does not type it publicly; allure-vitest reads it too). */
export function fileTaskOf(module: unknown): RunnerTestFile {
  return (module as { task: RunnerTestFile }).task
}

/**
 * A lane (runner/run/targets/lanes.ts) is one test file holding every suite of the run in a block named by its suite
 * file.
 * For the reports that are organised by file (JUnit, Allure), each block becomes a file of its own again: a copy of
 * the task tree whose file is the suite file and whose checks sit directly under it, as in a run of one file per
 * suite. The checks keep their results and metadata; the run's own tasks are not changed (other reporters read them).
 * A file that is not a lane is returned as it is.
 */
export function suiteFilesOf(file: RunnerTestFile, root: string): RunnerTestFile[] {
  const blocks = file.tasks.filter((t) => t.type === 'suite' && typeof t.meta.suiteFile === 'string')
  if (blocks.length === 0) return [file]
  return blocks.map((block) => {
    const suiteFile = block.meta.suiteFile!
    const copy = {
      ...block,
      name: suiteFile,
      filepath: resolve(root, suiteFile),
      projectName: file.projectName,
      suite: undefined,
    } as unknown as RunnerTestFile
    ;(copy as { file: RunnerTestFile }).file = copy
    copy.tasks = (block as AnyTask).tasks!.map((t) => reparent(t, undefined, copy))
    return copy
  })
}

function reparent(task: AnyTask, parent: AnyTask | undefined, file: RunnerTestFile): AnyTask {
  const copy = { ...task, file, suite: parent } as AnyTask
  if (task.tasks) copy.tasks = task.tasks.map((t) => reparent(t, copy, file))
  return copy
}
