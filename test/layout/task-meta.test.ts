import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { listFiles } from '../../common/fs/list-files'

// What vitest carries for the checks (TaskMeta, ProvidedContext) is declared once: the reporters and the checks read
// one
// declaration, and a field cannot be added in a corner the reporters never look at.
describe('one declaration of the vitest fields the checks and reporters share', () => {
  it("helpers/checks/task-meta.ts is the only module augmenting 'vitest'", () => {
    const augmenting = ['helpers', 'runner', 'common', 'suites', 'scripts', 'reference']
      .flatMap((d) => listFiles(join(PROJECT_ROOT, d), '.ts'))
      .filter((f) => /declare module ['"]vitest['"]/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(PROJECT_ROOT, f).split('\\').join('/'))
    expect(augmenting).toEqual(['helpers/checks/task-meta.ts'])
  })
})
