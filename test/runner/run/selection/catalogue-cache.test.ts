import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  catalogueKey,
  readCachedCatalogue,
  writeCachedCatalogue,
} from '../../../../runner/run/selection/catalogue-cache'
import { tempDir } from '../../../support/temp-dir'

describe('the catalogue cache', () => {
  it('keys a catalogue by the contents of its sources and the target, not by the run id or seed', () => {
    const root = tempDir('catalogue')
    mkdirSync(join(root, 'suites'))
    writeFileSync(join(root, 'suites/a.test.ts'), 'one')
    const k = catalogueKey({ target: { products: ['home'], runId: 'run-1', seed: 1 } }, root)
    expect(catalogueKey({ target: { products: ['home'], runId: 'run-2', seed: 2 } }, root)).toBe(k)
    expect(catalogueKey({ target: { products: ['home', 'motor'], runId: 'run-1' } }, root)).not.toBe(k)
    writeFileSync(join(root, 'suites/a.test.ts'), 'two')
    expect(catalogueKey({ target: { products: ['home'], runId: 'run-1' } }, root)).not.toBe(k)
  })

  it('reads back what it wrote, and nothing for an unknown key or a damaged file', () => {
    const dir = join(tempDir('catalogue'), 'cache')
    writeCachedCatalogue('k1', [{ id: 'SL-1' }], dir)
    expect(readCachedCatalogue('k1', dir)).toEqual([{ id: 'SL-1' }])
    expect(readCachedCatalogue('k2', dir)).toBeUndefined()
    writeFileSync(join(dir, 'k3.json'), '{"half')
    expect(readCachedCatalogue('k3', dir)).toBeUndefined()
  })
})
