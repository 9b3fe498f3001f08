import { beforeAll, describe, expect, it } from 'vitest'
import { loadTargetConfig, withEmbeddedOrigin } from '../../common/config/target-config'
import { INVARIANTS } from '../../helpers/oracle/invariants'
import { collectCatalogue, type CatalogueEntry } from '../../runner/run/selection/catalogue'
import { generatedPages, judgingFiles, RegionError, renderCatalogue, replaceRegion } from '../../scripts/docs/generate'

// The parts of docs/ that restate code are generated from it: the committed copy must be what `npm run docs:generate`
// writes now (the catalogue is collected without running any check, as `list` does).
let catalogue: CatalogueEntry[]
beforeAll(async () => {
  catalogue = await collectCatalogue({ target: withEmbeddedOrigin(loadTargetConfig({}), 'http://127.0.0.1:9') })
}, 120_000)

describe('generated docs', () => {
  it(
    'docs/model.md (invariants), docs/checks.md (catalogue) and docs/environment.md (variables) are up to ' + 'date',
    () => {
      const stale = [...generatedPages(catalogue)]
        .filter(([, [before, after]]) => before !== after)
        .map(([page]) => page)
      expect(stale, 'run npm run docs:generate and commit the pages').toEqual([])
    },
  )

  it('every check and every invariant is on the catalogue page, per-product checks on one row', () => {
    const page = renderCatalogue(catalogue)
    for (const c of catalogue) expect(page, c.id).toContain(c.id)
    expect(page).toMatch(/\| SL-LIFE-003-home, SL-LIFE-003-travel \|/)
  })

  it('names the files of the model that judge each invariant', () => {
    const judged = judgingFiles()
    for (const i of INVARIANTS) expect(judged.get(i.id)?.length, i.id).toBeGreaterThan(0)
    expect([...judged.values()].flat()).not.toContain('helpers/oracle/invariants.ts')
  })

  it(
    'replaces only the marked region, keeping the prose around it; a page without the markers is an error naming ' +
      'it',
    () => {
      const page = 'intro\n<!-- generated:x (old note) -->\nold\n<!-- /generated:x -->\noutro\n'
      const out = replaceRegion(page, 'x', 'new', 'docs/p.md')
      expect(out).toMatch(
        /^intro\n<!-- generated:x \(npm run docs:generate; [^)]*\) -->\nnew\n<!-- \/generated:x -->\noutro\n$/,
      )
      expect(replaceRegion(out, 'x', 'new')).toBe(out)
      expect(() => replaceRegion('no markers', 'x', 'new', 'docs/p.md')).toThrow(RegionError)
      expect(() => replaceRegion('no markers', 'x', 'new', 'docs/p.md')).toThrow(/docs\/p\.md: no region 'x'/)
    },
  )
})
