import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'

const DOC = 'docs/architecture.md'

/**
 * The folders and files docs/architecture.md names in backticks. A name with a placeholder (`<area>`, `{id}`, `*`,
 * `...`), an API path (`/links`, `GET /requests/{id}`) or no path shape (`data.policy.status`) is not one.
 */
function namedPaths(markdown: string): string[] {
  const out = new Set<string>()
  for (const m of markdown.matchAll(/`([^`\n]+)`/g)) {
    const s = m[1]!.trim()
    if (/[<>{}*\s]|\.\.\.|^[./]|^-/.test(s)) continue
    if (!/^[\w.-]+(\/[\w.-]+)*\/?$/.test(s)) continue
    if (!s.includes('/') && !/\.(ts|mts|mjs|json|md|sh|yml|yaml)$/.test(s)) continue
    out.add(s)
  }
  return [...out]
}

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: PROJECT_ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean)

/**
 * Where a named path is: from the project root; a part of the check library is named from helpers/
 * (`client/http`, `oracle/invariants.ts`); a bare file name is wherever the tree has one file of that name.
 */
function found(name: string): boolean {
  const bare = name.replace(/\/$/, '')
  if (existsSync(join(PROJECT_ROOT, bare)) || existsSync(join(PROJECT_ROOT, 'helpers', bare))) return true
  if (!bare.includes('/')) return tracked.some((f) => f === bare || f.endsWith(`/${bare}`))
  return false
}

describe(DOC, () => {
  const names = namedPaths(readFileSync(join(PROJECT_ROOT, DOC), 'utf8'))

  it('names folders and files (the extraction finds them)', () => {
    expect(names).toContain('helpers/oracle/')
    expect(names).toContain('common/operation-facts.ts')
    expect(namedPaths('`a/b.ts` `GET /x/{id}` `data.policy.status` `reference/defects/<area>.ts` `x.ts`')).toEqual([
      'a/b.ts',
      'x.ts',
    ])
    expect([found('helpers/oracle/'), found('oracle/invariants.ts'), found('operations.schema.json')]).toEqual([
      true,
      true,
      true,
    ])
    expect([found('helpers/gone/'), found('oracle/gone.ts'), found('gone.json')]).toEqual([false, false, false])
  })

  it('names only folders and files that exist', () => {
    expect(names.filter((n) => !found(n))).toEqual([])
  })
})
