import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { backArrows, cycles, figures, importsOf, type ImportEdge } from '../../scripts/layers/import-graph'

const e = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly })

describe('the import graph of the check library (npm run imports:graph)', () => {
  it('reads imports, re-exports and dynamic imports, and tells a type-only import', () => {
    const text = [
      "import { a } from './a'",
      "import type { B } from '../b'",
      "import { type C, type D } from './c'",
      "import { e, type F } from './e'",
      "export { g } from './g'",
      "const h = await import('./h')",
      "import 'vitest'",
    ].join('\n')
    expect(importsOf(text)).toEqual([
      { spec: './a', typeOnly: false },
      { spec: '../b', typeOnly: true },
      { spec: './c', typeOnly: true },
      { spec: './e', typeOnly: false },
      { spec: './g', typeOnly: false },
      { spec: 'vitest', typeOnly: false },
      { spec: './h', typeOnly: false },
    ])
  })

  it('finds the cycles (groups of parts that import each other) and the arrows back up the planned layers', () => {
    const edges = [e('checks/check.ts', 'oracle/types.ts'), e('oracle/types.ts', 'checks/sales'), e('checks/sales', 'checks/check.ts'), e('client/http', 'oracle/types.ts', true), e('client/fs', 'client/data')]
    expect(cycles(edges)).toEqual([['checks/check.ts', 'checks/sales', 'oracle/types.ts']])
    expect(cycles([e('a', 'b'), e('b', 'c')])).toEqual([])
    expect(backArrows(edges).map((x) => `${x.from}->${x.to}`)).toEqual(['oracle/types.ts->checks/sales', 'client/http->oracle/types.ts'])
  })

  it('measures this project: the parts of helpers/ (a folder or file under each layer), every arrow between two of them', () => {
    const f = figures(PROJECT_ROOT)
    expect(f.parts).toBeGreaterThan(20)
    expect(f.arrows).toBeGreaterThanOrEqual(f.runtime.arrows)
    expect(f.backArrows.length).toBeGreaterThanOrEqual(f.runtime.backArrows)
  })
})
