import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { listFiles } from '../../common/fs/list-files'
import { cycles, figures, helperEdges, importsOf, LAYERS } from '../../scripts/layers/import-graph'

/**
 * Every relative import of `file` (type-only ones too: `import type`, `import { type X }`, `export ... from`, dynamic
 * `import()`), as the folder it lands in: the top-level folder of the project, and for helpers/ its layer
 * (`helpers/client`, `helpers/oracle`, `helpers/checks`; a file right under helpers/ is `helpers/<file>`).
 */
function importedPlaces(file: string): { place: string; spec: string }[] {
  return importsOf(readFileSync(file, 'utf8'))
    .filter((i) => i.spec.startsWith('.'))
    .map((i) => {
      const rel = relative(PROJECT_ROOT, resolve(dirname(file), i.spec)).split(sep)
      return { spec: i.spec, place: rel[0] === 'helpers' && rel.length > 1 ? `helpers/${rel[1]!}` : rel[0]! }
    })
}

/** Every import from a file under `folder` into a place not in `allowed`, as "file -> spec". */
function offending(folder: string, allowed: string[]): string[] {
  return listFiles(join(PROJECT_ROOT, folder), '.ts').flatMap((f) =>
    importedPlaces(f)
      .filter((i) => !allowed.includes(i.place))
      .map((i) => `${relative(PROJECT_ROOT, f)} -> ${i.spec}`),
  )
}

// The layout of docs/architecture.md: common/ below everything; the check library (helpers/) in three layers, each
// importing only downward (client < oracle < checks); the reference service (reference/) beside the check library and
// blind to it; the suites on top of the check library; the runner above both.
describe('layout: who may import whom', () => {
  it('common/ imports nothing of the project but itself', () => {
    expect(offending('common', ['common'])).toEqual([])
  })

  it('the reference service imports only common/ (never the check library, the runner or the suites)', () => {
    expect(offending('reference', ['reference', 'common'])).toEqual([])
  })

  it('the check library is its three layers and nothing else: helpers/client, helpers/oracle, helpers/checks', () => {
    const outside = listFiles(join(PROJECT_ROOT, 'helpers'), '.ts')
      .map((f) => relative(join(PROJECT_ROOT, 'helpers'), f).split(sep))
      .filter((p) => p.length < 2 || !(LAYERS as readonly string[]).includes(p[0]!))
      .map((p) => p.join('/'))
    expect(outside).toEqual([])
  })

  it('client imports only the client and common/', () => {
    expect(offending('helpers/client', ['helpers/client', 'common'])).toEqual([])
  })

  it('oracle imports only the oracle, the client and common/', () => {
    expect(offending('helpers/oracle', ['helpers/oracle', 'helpers/client', 'common'])).toEqual([])
  })

  it(
    'checks imports only the checks, the oracle, the client and common/ (never the runner, scripts or the reference ' +
      'service)',
    () => {
      expect(offending('helpers/checks', ['helpers/checks', 'helpers/oracle', 'helpers/client', 'common'])).toEqual([])
    },
  )

  it(
    'the suites use the check library (any layer), common/ and fixtures/; never the reference service, the runner ' +
      'or scripts',
    () => {
      // docs/architecture.md "What the suites may import": checks first; the oracle's and the client's modules directly
      // where a check needs them as they are (a forged token, a JSON pointer, the types of an answer)
      expect(
        offending('suites', ['suites', 'helpers/checks', 'helpers/oracle', 'helpers/client', 'common', 'fixtures']),
      ).toEqual([])
    },
  )

  it(
    'the runner uses common/, the check library and the reference service (to start it); never suites/, scripts/ or ' +
      'test/',
    () => {
      expect(
        offending('runner', ['runner', 'common', 'helpers/client', 'helpers/oracle', 'helpers/checks', 'reference']),
      ).toEqual([])
    },
  )

  it(
    'no cycle among the parts of the check library (a folder or file under each layer), type-only imports ' + 'counted',
    () => {
      const edges = helperEdges(PROJECT_ROOT)
      expect(edges.length).toBeGreaterThan(50)
      expect(cycles(edges)).toEqual([])
      expect(figures(PROJECT_ROOT).backArrows).toEqual([])
    },
  )

  it('the rules see every form of import: a type-only import into a higher layer would be caught', () => {
    // guards the parser the rules use: the forms the project writes are all recognised, type-only ones included
    const probe = join(PROJECT_ROOT, 'helpers', 'client', 'probe.ts')
    const text = [
      "import type { SuiteContext } from '../checks/context'",
      "import { type Violation } from '../oracle/invariants'",
      "export { x } from '../../runner/run/verdict'",
      "const m = await import('../../reference/app')",
    ].join('\n')
    const places = importsOf(text).map((i) =>
      relative(PROJECT_ROOT, resolve(dirname(probe), i.spec))
        .split(sep)
        .slice(0, 2)
        .join('/'),
    )
    expect(places).toEqual(['helpers/checks', 'helpers/oracle', 'runner/run', 'reference/app'])
    expect(
      importsOf(text)
        .slice(0, 2)
        .every((i) => i.typeOnly),
    ).toBe(true)
    expect(importedPlaces(join(PROJECT_ROOT, 'test', 'layout', 'imports.test.ts')).map((i) => i.place)).toEqual(
      expect.arrayContaining(['common', 'scripts', 'reference']),
    )
  })

  it(
    'the runner never imports scripts/ (the development harnesses), and scripts/ never imports test/ (not in the ' +
      'package)',
    () => {
      const into = (layer: string, target: string) =>
        listFiles(join(PROJECT_ROOT, layer), '.ts').flatMap((f) =>
          importedPlaces(f)
            .filter((i) => i.place === target)
            .map((i) => `${relative(PROJECT_ROOT, f)} -> ${i.spec}`),
        )
      expect(into('runner', 'scripts')).toEqual([])
      expect(into('scripts', 'test')).toEqual([])
    },
  )

  it('no runner file starts a project file by path: every user command is imported by runner/cli', () => {
    // a path literal of a project script (scripts/x.ts, reference/cli.ts, bin/...) is how a command used to be started
    const byPath = /['"`](?:\.\.\/)*(?:scripts|reference|bin|test)\/[\w./-]+\.(?:ts|mjs|cjs|js)['"`]|runProjectScript/
    const starts = listFiles(join(PROJECT_ROOT, 'runner'), '.ts').filter((f) => byPath.test(readFileSync(f, 'utf8')))
    expect(starts.map((f) => relative(PROJECT_ROOT, f))).toEqual([])
    expect(byPath.test("spawn(process.execPath, ['--import', TSX, resolve(PROJECT_ROOT, 'scripts/report.ts')])")).toBe(
      true,
    )
  })
})
