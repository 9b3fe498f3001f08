import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import {
  backArrows,
  cycles,
  figures,
  folderGraphs,
  importsOf,
  type ImportEdge,
} from '../../scripts/layers/import-graph'
import { tempDir } from '../support/temp-dir'

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
    const edges = [
      e('checks/check.ts', 'oracle/types.ts'),
      e('oracle/types.ts', 'checks/sales'),
      e('checks/sales', 'checks/check.ts'),
      e('client/http', 'oracle/types.ts', true),
      e('client/fs', 'client/data'),
    ]
    expect(cycles(edges)).toEqual([['checks/check.ts', 'checks/sales', 'oracle/types.ts']])
    expect(cycles([e('a', 'b'), e('b', 'c')])).toEqual([])
    expect(backArrows(edges).map((x) => `${x.from}->${x.to}`)).toEqual([
      'oracle/types.ts->checks/sales',
      'client/http->oracle/types.ts',
    ])
  })

  it(
    'measures this project: the parts of helpers/ (a folder or file under each layer), every arrow between two of ' +
      'them',
    () => {
      const f = figures(PROJECT_ROOT)
      expect(f.parts).toBeGreaterThan(20)
      expect(f.arrows).toBeGreaterThanOrEqual(f.runtime.arrows)
      expect(f.backArrows.length).toBeGreaterThanOrEqual(f.runtime.backArrows)
    },
  )

  it(
    'measures each folder with its children as nodes: an import counts in the lowest folder holding both ' + 'files',
    () => {
      const root = tempDir('folders')
      const files: Record<string, string> = {
        // app/: cli -> commands -> run, and run/verdict.ts -> cli/colour.ts closes a circle (cli, commands, run)
        'app/cli/main.ts': "import { a } from '../commands/a'\nimport { c } from './colour'",
        'app/cli/colour.ts': '',
        'app/commands/a.ts': "import { v } from '../run/verdict'",
        'app/run/verdict.ts': "import type { c } from '../cli/colour'",
        // app/run/: two files that only import downward
        'app/run/shard.ts': "import { v } from './verdict'",
      }
      for (const [f, text] of Object.entries(files)) {
        mkdirSync(join(root, dirname(f)), { recursive: true })
        writeFileSync(join(root, f), text)
      }
      const byFolder = new Map(folderGraphs(root, ['app']).map((g) => [g.folder, g]))
      const app = byFolder.get('app')!
      expect(app.arrows.map((e) => `${e.from}->${e.to}${e.typeOnly ? ' (type)' : ''}`)).toEqual([
        'cli->commands',
        'commands->run',
        'run->cli (type)',
      ])
      expect(app.circles).toEqual([['cli', 'commands', 'run']])
      expect(app.backArrows.map((e) => `${e.from}->${e.to}`)).toEqual(['run->cli'])
      // main.ts -> colour.ts counts in app/cli, shard.ts -> verdict.ts in app/run: neither closes a circle
      expect(byFolder.get('app/cli')!.arrows.map((e) => `${e.from}->${e.to}`)).toEqual(['main.ts->colour.ts'])
      expect([byFolder.get('app/cli')!.circles, byFolder.get('app/run')!.backArrows]).toEqual([[], []])
    },
  )

  it(
    'this project: no circle and no arrow back up in any folder (common/, helpers/, reference/, runner/, suites/, ' +
      'scripts/, test/)',
    () => {
      const f = figures(PROJECT_ROOT).folders
      expect(f.measured).toBeGreaterThan(100)
      expect(f.offending).toEqual([])
    },
  )
})
