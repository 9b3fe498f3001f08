import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../../../common/project-root'
import { loadTargetConfig, withEmbeddedOrigin } from '../../../../common/config/target-config'
import { collectCatalogue, type CatalogueEntry } from '../../../../runner/run/selection/catalogue'
import { selectChecks } from '../../../../runner/run/selection/select'
import { runHelp } from '../../../../runner/commands/run/index'

// the catalogue the suites define (collected, not run), as `list` prints it: from a line of it to the code in one hop
let checks: CatalogueEntry[]
beforeAll(async () => {
  checks = await collectCatalogue({ target: withEmbeddedOrigin(loadTargetConfig({}), 'http://127.0.0.1:9') })
}, 120_000)

const source = (file: string) => readFileSync(join(PROJECT_ROOT, file), 'utf8').split('\n')

describe('the catalogue: where each check is declared', () => {
  it('every check has the line of its check(...), checkApart(...) or step(...) call in its suite file', () => {
    expect(checks.length).toBeGreaterThan(250)
    const wrong = checks
      .filter((c) => !c.file.startsWith('helpers/'))
      .filter((c) => !c.line || !/\b(check|checkApart|step)\(/.test(source(c.file)[c.line - 1] ?? ''))
    expect(wrong.map((c) => `${c.id} ${c.file}:${c.line}`)).toEqual([])
  })

  it(
    'a lifecycle step, a per-product check and a cell of the operation x state table each point at their own ' + 'call',
    () => {
      const at = (id: string) => checks.find((c) => c.id === id)!
      // a lifecycle step, made once per product: both products at the same step(...) line, which names the step
      const home = at('SL-LIFE-003-home')
      expect(home.lifecycle).toBeDefined()
      expect(at('SL-LIFE-003-travel').line).toBe(home.line)
      expect(
        source(home.file)
          .slice(home.line! - 1, home.line! + 2)
          .join('\n'),
      ).toMatch(/step\(\s*meta\(\s*'003'/)
      // every cell of the table comes from one check(...) in a loop
      const cells = checks.filter((c) => c.id.startsWith('SL-OPS-'))
      expect(cells.length).toBeGreaterThan(10)
      expect(new Set(cells.map((c) => `${c.file}:${c.line}`)).size).toBe(1)
      // the invariants: their declaration in the model
      const inv = at('WH-INV-002')
      expect(
        source(inv.file)
          .slice(inv.line! - 1, inv.line! + 2)
          .join('\n'),
      ).toContain("id: 'WH-INV-002'")
    },
  )
})

describe("run --help's example of a partial verdict", () => {
  it('is counted from this catalogue (22 of 299 was a literal while there were 384)', () => {
    const selected = selectChecks(checks, { checks: ['SL-LIFE'] }).selected.length
    expect(selected).toBeGreaterThan(0)
    expect(runHelp({})).toContain(
      `"CONFORMS (partial: ${selected} of ${checks.length} checks; selection --check SL-LIFE)"`,
    )
  })
})
