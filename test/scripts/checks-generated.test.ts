import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadTargetConfig, withEmbeddedOrigin } from '../../common/config/target-config'
import { PROJECT_ROOT } from '../../common/project-root'
import { collectCatalogue, collectCatalogueFromSuites } from '../../runner/run/selection/catalogue'
import { expandSegment, readAreaChecks, staticCatalogue } from '../../runner/run/selection/static-catalogue'
import { expectedAreaFiles } from '../../scripts/checks-generate'
import { renderAreaChecks } from '../../scripts/checks/render'

// The static check metadata (suites/<area>/checks.json) is what `list`, the selection and the docs read instead of
// collecting the suites: the committed files must be what `npm run checks:generate` writes now, and expanded for any
// products they must give what collecting the suites for those products gives.
const reference = withEmbeddedOrigin(loadTargetConfig({}), 'http://127.0.0.1:9')
let expected: Map<string, string>
beforeAll(async () => {
  expected = await expectedAreaFiles()
}, 120_000)

describe('static check metadata per area (npm run checks:generate)', () => {
  it('every area of suites/ has its file, and each is up to date', () => {
    expect([...expected.keys()].length).toBeGreaterThanOrEqual(7)
    const stale = [...expected]
      .filter(([file, text]) => readFileSync(join(PROJECT_ROOT, file), 'utf8') !== text)
      .map(([file]) => file)
    expect(stale, 'run npm run checks:generate and commit the files').toEqual([])
  })

  it('gives the catalogue the collection gives, for the reference profile and for other products', async () => {
    for (const products of [reference.products, ['travel', 'motor', 'home']]) {
      const target = { ...reference, products, product: products[0]! }
      const collected = await collectCatalogueFromSuites({ target })
      expect(staticCatalogue(products, products[0])).toEqual(collected)
    }
    // list and the selection read it: no collection
    expect(await collectCatalogue({ target: reference })).toEqual(
      staticCatalogue(reference.products, reference.product),
    )
  }, 120_000)

  it('keeps a check defined per product once, as a template, in the order the suite defines them', () => {
    const sales = readAreaChecks()!.find((a) => a.area === 'sales')!
    const lifecycle = sales.segments.find(
      (s) => 'perProduct' in s && s.checks.some((c) => c.id === 'SL-LIFE-003-{product}'),
    )!
    const ids = expandSegment(lifecycle, ['a', 'b']).map((c) => c.id)
    expect(ids.indexOf('SL-LIFE-003-a')).toBeLessThan(ids.indexOf('SL-LIFE-003-b'))
    expect(ids.filter((id) => id.endsWith('-a')).length).toBe(lifecycle.checks.length)
    // a run of per-product checks that no template gives back is refused rather than written wrong
    const odd = [
      {
        id: 'X-home',
        document: 'd',
        section: '§1',
        requirement: 'r home',
        about: [],
        file: 'suites/sales/x.test.ts',
        product: 'home',
      },
      {
        id: 'Y-travel',
        document: 'd',
        section: '§1',
        requirement: 'r travel',
        about: [],
        file: 'suites/sales/x.test.ts',
        product: 'travel',
      },
    ]
    const area = renderAreaChecks(odd, ['home', 'travel'], ['sales']).get('sales')!
    expect(area.segments.every((s) => !('perProduct' in s))).toBe(true)
    expect(() => renderAreaChecks(odd, ['home'], ['sales'])).toThrow(/at least two products/)
  })
})
