import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'

interface LockEntry {
  version?: string
  engines?: { node?: string }
  hasInstallScript?: boolean
  optional?: boolean
}
const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string }
  allowScripts: Record<string, boolean>
}
const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>
}
const entries = Object.entries(lock.packages).filter(([k]) => k.startsWith('node_modules/'))
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)

// docs/ci.md "Node and npm": Node 20.19+, 22 and 24 are supported; npm 11 runs no dependency's install script
// unless package.json allowScripts says so, and none is needed.
describe('install hygiene', () => {
  it('every dependency with an install script has a decision in allowScripts (npm ci lists none as unreviewed)', () => {
    const withScripts = [...new Set(entries.filter(([, e]) => e.hasInstallScript).map(([k]) => nameOf(k)))].sort()
    expect(withScripts.length).toBeGreaterThan(0)
    expect(withScripts.filter((n) => !(n in pkg.allowScripts))).toEqual([])
  })

  it(
    'no overrides: they pin versions for this clone only, a consumer installing the package gets the ranges ' +
      '(docs/ci.md "Node and npm")',
    () => {
      expect((pkg as { overrides?: unknown }).overrides).toBeUndefined()
    },
  )

  it('no dependency demands a newer Node than the engines field promises (no EBADENGINE warning on Node 20.19)', () => {
    expect(pkg.engines.node).toBe('>=20.19')
    const newerOnly = entries
      .filter(([, e]) => !e.optional && /^\s*>=\s*(2[1-9]|[3-9]\d)/.test(e.engines?.node ?? ''))
      .map(([k, e]) => `${k}@${e.version} ${e.engines!.node}`)
    expect(newerOnly).toEqual([])
  })
})
