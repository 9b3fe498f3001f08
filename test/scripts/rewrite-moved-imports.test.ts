import { describe, expect, it } from 'vitest'
import { rewriteMovedImports } from '../../scripts/layers/rewrite-moved-imports'

describe('rewriting imports across the layer move (scripts/layers/rewrite-moved-imports.ts)', () => {
  const renames = new Map([
    ['helpers/model/types.ts', 'helpers/client/http/observer.ts'],
    ['helpers/sales/lifecycle.ts', 'helpers/checks/sales/lifecycle.ts'],
  ])
  const now = new Set([
    'helpers/client/http/observer.ts',
    'helpers/checks/sales/lifecycle.ts',
    'helpers/oracle/invariants.ts',
  ])
  const exists = (p: string) => now.has(p)

  it('points an import of a renamed file at its new place, relative to the importing file', () => {
    const text =
      "import type { Violation } from '../model/types'\nimport { SalesFlow } from '../../helpers/sales/lifecycle'\n"
    expect(rewriteMovedImports(text, 'helpers/oracle/new-model.ts', renames, exists)).toBe(
      "import type { Violation } from '../client/http/observer'\nimport { SalesFlow } from " +
        "'../checks/sales/lifecycle'\n",
    )
    expect(
      rewriteMovedImports(
        "import { SalesFlow } from '../../helpers/sales/lifecycle'",
        'suites/policies/x.test.ts',
        renames,
        exists,
      ),
    ).toBe("import { SalesFlow } from '../../helpers/checks/sales/lifecycle'")
  })

  it('leaves alone what still resolves and what was not renamed', () => {
    const text = "import { INVARIANTS } from './invariants'\nimport { x } from './gone'\nimport 'vitest'\n"
    expect(rewriteMovedImports(text, 'helpers/oracle/y.ts', renames, exists)).toBe(text)
  })

  it(
    'reads the imports of a renamed file from its old folder when they resolve from neither place (a branch edited ' +
      'it there)',
    () => {
      const moves = new Map([
        ['runner/cli/commands/run.ts', 'runner/commands/run/index.ts'],
        ['runner/verdict.ts', 'runner/run/verdict.ts'],
      ])
      const here = new Set(['runner/commands/run/index.ts', 'runner/run/verdict.ts', 'common/spec.ts'])
      const text =
        "import { x } from '../../verdict'\nimport { SPEC } from '../../../common/spec'\nimport { y } from './gone'\n"
      expect(rewriteMovedImports(text, 'runner/commands/run/index.ts', moves, (p) => here.has(p))).toBe(
        "import { x } from '../../run/verdict'\nimport { SPEC } from '../../../common/spec'\nimport { y } from " +
          "'./gone'\n",
      )
      // an import of a file that became a folder's index.ts
      expect(
        rewriteMovedImports("import { run } from './commands/run'", 'runner/cli/main.ts', moves, (p) => here.has(p)),
      ).toBe("import { run } from '../commands/run'")
    },
  )
})
