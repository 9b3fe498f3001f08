/**
 * npm run operations:generate [-- --check]
 *
 * Writes common/operation-ids.ts (the OperationId union) from common/operations.json. --check writes nothing and
 * exits 1 when the file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../common/project-root'
import { OPERATION_IDS_FILE, readCatalogueJson, renderOperationIds } from './operations/render'

const file = join(PROJECT_ROOT, OPERATION_IDS_FILE)
const after = renderOperationIds(readCatalogueJson())
const before = readFileSync(file, 'utf8')
if (process.argv.includes('--check')) {
  process.stdout.write(
    before === after
      ? `${OPERATION_IDS_FILE} is up to date\n`
      : `stale: ${OPERATION_IDS_FILE} (npm run operations:generate)\n`,
  )
  process.exitCode = before === after ? 0 : 1
} else if (before !== after) {
  writeFileSync(file, after)
  process.stdout.write(`written: ${OPERATION_IDS_FILE}\n`)
} else process.stdout.write(`${OPERATION_IDS_FILE} is up to date\n`)
