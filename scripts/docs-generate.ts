/**
 * npm run docs:generate [-- --check]
 *
 * Writes the parts of docs/ that restate code (the invariants in docs/model.md, the check catalogue in docs/checks.md,
 * the environment variables in docs/environment.md) from the code, between their markers (scripts/docs/generate.ts).
 * --check writes nothing and exits 1 naming each stale page. Collects the suites (no request is sent).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../common/project-root'
import { loadTargetConfig, withEmbeddedOrigin } from '../common/config/target-config'
import { collectCatalogue } from '../runner/run/selection/catalogue'
import { generatedPages } from './docs/generate'

async function main(): Promise<number> {
  const check = process.argv.includes('--check')
  const catalogue = await collectCatalogue({ target: withEmbeddedOrigin(loadTargetConfig({}), 'http://127.0.0.1:9') })
  const stale: string[] = []
  for (const [page, [before, after]] of generatedPages(catalogue)) {
    if (before === after) continue
    stale.push(page)
    if (!check) writeFileSync(join(PROJECT_ROOT, page), after)
  }
  if (check) {
    process.stdout.write(
      stale.length ? `stale: ${stale.join(', ')} (npm run docs:generate)\n` : 'docs are up to date\n',
    )
    return stale.length ? 1 : 0
  }
  process.stdout.write(stale.length ? `written: ${stale.join(', ')}\n` : 'docs are up to date\n')
  return 0
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`)
    process.exit(3)
  },
)
