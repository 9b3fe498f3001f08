/**
 * npm run checks:generate [-- --check]
 *
 * Writes the static check metadata of each area, suites/<area>/checks.json (runner/run/selection/static-catalogue.ts),
 * from the suites collected with vitest (nothing run, no request) against the reference profile. `list`, the
 * selection and the docs read these files instead of collecting the suites. --check: writes nothing, exits 1 when a
 * file is stale (test/scripts/checks-generated.test.ts does the same in npm test).
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../common/project-root'
import { loadTargetConfig, withEmbeddedOrigin } from '../common/config/target-config'
import { collectCatalogueFromSuites } from '../runner/run/selection/catalogue'
import { AREA_CHECKS_FILE } from '../runner/run/selection/static-catalogue'
import { areaChecksText, renderAreaChecks } from './checks/render'

/** Every area's file and the text it should have. */
export async function expectedAreaFiles(root: string = PROJECT_ROOT): Promise<Map<string, string>> {
  const config = loadTargetConfig({})
  const collected = await collectCatalogueFromSuites({ target: withEmbeddedOrigin(config, 'http://127.0.0.1:9') }, [], {
    products: true,
  })
  const areas = readdirSync(join(root, 'suites'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
  const rendered = renderAreaChecks(collected, config.products, areas, config.product)
  return new Map([...rendered].map(([area, a]) => [join('suites', area, AREA_CHECKS_FILE), areaChecksText(a)]))
}

if (process.argv[1]?.endsWith('checks-generate.ts')) {
  const check = process.argv.includes('--check')
  const stale: string[] = []
  for (const [file, text] of await expectedAreaFiles()) {
    const path = join(PROJECT_ROOT, file)
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue
    stale.push(file)
    if (!check) writeFileSync(path, text)
  }
  process.stdout.write(
    check
      ? `${stale.length ? `stale: ${stale.join(', ')}` : 'every area file is fresh'}\n`
      : `written: ${stale.join(', ') || 'nothing (every area file is fresh)'}\n`,
  )
  if (check && stale.length > 0) process.exitCode = 1
}
