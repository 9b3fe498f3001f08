import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { listFiles } from '../../common/fs/list-files'
import fastConfig from '../../vitest.test.config'
import proofConfig from '../../vitest.proof.config'

/** What makes a test slow: it runs the suite (or a harness that does), a container, or the installed package. */
const SLOW =
  /\brunConformance\(|\brunMutation\(|scripts\/(conformance|acceptance|sharded|mutation|flake|chaos-runs|bench)\.ts|requireContainerRuntime\(|npm', \['pack'/

const tests = listFiles(join(PROJECT_ROOT, 'test'), '.test.ts').map((f) => relative(PROJECT_ROOT, f))

describe('fast tests and slow proofs (npm test / npm run test:proofs)', () => {
  it('no fast test file runs the suite, a harness, a container or the package: those are *.proof.test.ts', () => {
    const slow = tests.filter(
      (f) => !f.endsWith('.proof.test.ts') && SLOW.test(readFileSync(join(PROJECT_ROOT, f), 'utf8')),
    )
    expect(slow).toEqual([])
  })

  it('the two configurations split test/ by the file name, leaving nothing out', () => {
    expect(fastConfig.test?.include).toEqual(['test/**/*.test.ts'])
    expect(fastConfig.test?.exclude).toContain('test/**/*.proof.test.ts')
    expect(proofConfig.test?.include).toEqual(['test/**/*.proof.test.ts'])
    expect(tests.filter((f) => f.endsWith('.proof.test.ts')).length).toBeGreaterThan(10)
  })

  it('CI runs both', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(pkg.scripts.test).toBe('vitest run --config vitest.test.config.ts')
    expect(pkg.scripts['test:proofs']).toBe('vitest run --config vitest.proof.config.ts')
    expect(readFileSync(join(PROJECT_ROOT, '.ci/steps/40-test.sh'), 'utf8')).toMatch(/^npm test$/m)
    expect(readFileSync(join(PROJECT_ROOT, '.ci/steps/45-proofs.sh'), 'utf8')).toMatch(/^npm run test:proofs$/m)
  })
})
