import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../../../common/project-root'
import {
  coverage,
  covers,
  readRequirements,
  uncoveredChecks,
  type CitingCheck,
  type RequirementsIndex,
} from '../../../../common/requirements'
import { SPEC } from '../../../../common/spec'
import { loadTargetConfig, withEmbeddedOrigin } from '../../../../common/config/target-config'
import { requirementsView } from '../../../../runner/commands/list/requirements-view'
import { collectCatalogue } from '../../../../runner/run/selection/catalogue'

// common/requirements.json against the checks the suites define (collected, not run): every check covers a
// requirement of the index, and every requirement is covered, so the index can neither fall behind nor promise.
let index: RequirementsIndex
let checks: CitingCheck[]
beforeAll(async () => {
  index = readRequirements()
  checks = await collectCatalogue({ target: withEmbeddedOrigin(loadTargetConfig({}), 'http://127.0.0.1:9') })
}, 120_000)

describe('the requirements index', () => {
  it('names the two specification documents the checks cite', () => {
    expect(Object.keys(index.documents).sort()).toEqual(Object.values(SPEC).sort())
    expect(new Set(checks.map((c) => c.document))).toEqual(new Set(Object.values(SPEC)))
  })

  it('every check of the suites covers at least one requirement (add a new check to its requirement)', () => {
    expect(checks.length).toBeGreaterThan(250)
    expect(uncoveredChecks(index, checks).map((c) => `${c.id} ${c.document} ${c.section}`)).toEqual([])
  })

  it('every requirement is covered by at least one check, and its ids are unique', () => {
    const covered = coverage(index, checks)
    expect(index.requirements.filter((r) => covered.get(r.id)!.length === 0).map((r) => r.id)).toEqual([])
    expect(new Set(index.requirements.map((r) => r.id)).size).toBe(index.requirements.length)
  })

  it('a check covers a requirement only with its document, one of its sections and one of its id prefixes', () => {
    const r = index.requirements.find((x) => x.id === 'REQ-SALES-3-REQUESTS')!
    expect(covers(r, { id: 'SL-ISS-001', document: 'sales-service.md', section: '§3' })).toBe(true)
    expect(covers(r, { id: 'SL-ISS-001', document: 'sales-service.md', section: '§3, §4' })).toBe(true)
    expect(covers(r, { id: 'SL-ISS-001', document: 'sales-service.md', section: '§4' })).toBe(false)
    expect(covers(r, { id: 'SL-ISS-001', document: 'webhook-subscriptions.md', section: '§3' })).toBe(false)
    expect(covers(r, { id: 'WH-ISS-001', document: 'sales-service.md', section: '§3' })).toBe(false)
  })

  it('cites sections that exist in the documents (where the documents are at hand, ../shared/spec)', () => {
    const specDir = join(PROJECT_ROOT, '..', 'shared', 'spec')
    if (!existsSync(specDir)) return
    for (const r of index.requirements) {
      const text = readFileSync(join(specDir, r.document), 'utf8')
      expect(text, `${r.id}: ${r.document} ${r.section}`).toMatch(new RegExp(`^## ${r.section.slice(1)}\\. `, 'm'))
    }
  })

  it('is shipped in the package and printed by list --requirements with the covering checks', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { files: string[] }
    expect(pkg.files).toContain('fixtures/')
    const text = requirementsView(index, checks)
    for (const r of index.requirements) expect(text).toContain(`${r.id}  ${r.document} ${r.section}`)
    expect(text).toMatch(/checks \(\d+\): AUTH-LOGIN-001, /)
    expect(text).toContain('not part of this package')
  })
})
