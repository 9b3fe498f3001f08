import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { listFiles } from '../../helpers/fs/list-files'

/** The project's top-level folder a relative import of `file` lands in (undefined for a package import). */
function importedLayers(file: string): { layer: string; spec: string }[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!)
  return specs
    .filter((s) => s.startsWith('.'))
    .map((spec) => ({ spec, layer: relative(PROJECT_ROOT, resolve(dirname(file), spec)).split(sep)[0]! }))
}

/** Every import from a file under `layer` into a folder not in `allowed`, as "file -> spec". */
function offending(layer: string, allowed: string[]): string[] {
  return listFiles(join(PROJECT_ROOT, layer), '.ts').flatMap((f) =>
    importedLayers(f)
      .filter((i) => !allowed.includes(i.layer))
      .map((i) => `${relative(PROJECT_ROOT, f)} -> ${i.spec}`),
  )
}

// The layout of docs/development.md "Layout": common/ below everything, the check library (helpers/) and the reference
// service (reference/) side by side on it and blind to each other, the runner (runner/) above the check library.
describe('layout: who may import whom', () => {
  it('common/ imports nothing of the project but itself', () => {
    expect(offending('common', ['common'])).toEqual([])
  })

  it('the reference service imports only common/ (never the check library, the runner or the suites)', () => {
    expect(offending('reference', ['reference', 'common'])).toEqual([])
  })

  it('the check library imports only itself and common/ (never the runner or the reference service)', () => {
    expect(offending('helpers', ['helpers', 'common'])).toEqual([])
  })

  it('the suites use the check library and common/, never the reference service', () => {
    expect(offending('suites', ['suites', 'helpers', 'common', 'fixtures'])).toEqual([])
  })

  it('the rule sees an import: a file of its own test data would be caught', () => {
    // guards the regular expression: the forms the project uses are all recognised
    const probe = join(PROJECT_ROOT, 'test', 'layout', 'imports.test.ts')
    expect(importedLayers(probe).map((i) => i.layer)).toEqual(expect.arrayContaining(['common', 'helpers']))
  })

  it('the runner never imports scripts/ (the development harnesses), and scripts/ never imports test/ (not in the package)', () => {
    const into = (layer: string, target: string) => listFiles(join(PROJECT_ROOT, layer), '.ts').flatMap((f) => importedLayers(f).filter((i) => i.layer === target).map((i) => `${relative(PROJECT_ROOT, f)} -> ${i.spec}`))
    expect(into('runner', 'scripts')).toEqual([])
    expect(into('scripts', 'test')).toEqual([])
  })

  it('no runner file starts a project file by path: every user command is imported by runner/cli', () => {
    // a path literal of a project script (scripts/x.ts, reference/cli.ts, bin/...) is how a command used to be started
    const byPath = /['"`](?:\.\.\/)*(?:scripts|reference|bin|test)\/[\w./-]+\.(?:ts|mjs|cjs|js)['"`]|runProjectScript/
    const starts = listFiles(join(PROJECT_ROOT, 'runner'), '.ts').filter((f) => byPath.test(readFileSync(f, 'utf8')))
    expect(starts.map((f) => relative(PROJECT_ROOT, f))).toEqual([])
    expect(byPath.test("spawn(process.execPath, ['--import', TSX, resolve(PROJECT_ROOT, 'scripts/report.ts')])")).toBe(true)
  })
})
