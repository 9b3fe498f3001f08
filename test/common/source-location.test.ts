import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { callerOutside, formatLocation, stackLocations } from '../../common/source-location'

const at = (file: string, line: number, fn?: string) => `    at ${fn ? `${fn} (` : ''}${file}:${line}:5${fn ? ')' : ''}`

describe('source locations read from a stack trace', () => {
  it('reads every form of frame V8 writes, relative to the project, without a module query', () => {
    const stack = [
      'Error: where',
      at(join(PROJECT_ROOT, 'helpers/checks/check.ts'), 206, 'declaredAt'),
      at(`file://${join(PROJECT_ROOT, 'suites/sales/lifecycle.test.ts')}?target=acme`, 31, 'async step'),
      at(join(PROJECT_ROOT, 'suites/auth/login.test.ts'), 70),
      '    at node:internal/process/task_queues:95:5',
      '    at <anonymous>',
    ].join('\n')
    expect(stackLocations(stack)).toEqual([
      { file: 'helpers/checks/check.ts', line: 206 },
      { file: 'suites/sales/lifecycle.test.ts', line: 31 },
      { file: 'suites/auth/login.test.ts', line: 70 },
    ])
  })

  it('the caller is the first frame outside the modules named and outside every package', () => {
    const stack = [
      'Error',
      at(join(PROJECT_ROOT, 'helpers/checks/check.ts'), 206, 'declaredAt'),
      at(join(PROJECT_ROOT, 'node_modules/@vitest/runner/dist/chunk.js'), 10),
      at(join(PROJECT_ROOT, '..', 'elsewhere', 'x.js'), 3),
      at(join(PROJECT_ROOT, 'suites/auth/login.test.ts'), 70),
    ].join('\n')
    expect(callerOutside(['helpers/checks/check.ts'], stack)).toEqual({ file: 'suites/auth/login.test.ts', line: 70 })
    expect(callerOutside(['helpers/checks/', 'suites/'], stack)).toBeUndefined()
  })

  it('the live stack: this test file, at the line of the call', () => {
    const here = callerOutside([])
    expect(here?.file).toBe('test/common/source-location.test.ts')
    expect(formatLocation(here!)).toMatch(/^test\/common\/source-location\.test\.ts:\d+$/)
  })
})
