import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../../common/project-root'

/** `ledger-conformance --version`: the package's name and version, from its package.json. */
export function versionLine(root: string = PROJECT_ROOT): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string }
  return `${pkg.name} ${pkg.version}`
}
