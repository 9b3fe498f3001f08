import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { definitionsOf, readDocuments } from '../../../../helpers/client/contracts/openapi-documents'
import { PROJECT_ROOT } from '../../../../common/config/target-config'
import { tempDir } from '../../../support/temp-dir'

const dir = tempDir('openapi-docs')
const DOC = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }

/**
 * Whether openapi-backend's main file is in the CommonJS cache after a fresh process imports `module` and reads DOC.
 */
function loadsOpenApiBackend(module: string): boolean {
  const file = join(dir, 'doc.json')
  writeFileSync(file, JSON.stringify(DOC))
  const script = `
    const m = await import(${JSON.stringify(pathTo(module))})
    if (m.readDocuments) await m.readDocuments([${JSON.stringify(file)}])
    const { createRequire } = await import('node:module')
    const require = createRequire(${JSON.stringify(join(PROJECT_ROOT, 'package.json'))})
    console.log(JSON.stringify(Object.keys(require.cache).some((k) => k === require.resolve('openapi-backend'))))`
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(r.stderr)
  return JSON.parse(r.stdout.trim()) as boolean
}
const pathTo = (module: string) => resolve(PROJECT_ROOT, module)

describe('the published documents read without openapi-backend (helpers/client/contracts/openapi-documents.ts)', () => {
  it(
    'the global setup and the suite context load no openapi-backend (0.2 s on the path to the first request); the ' +
      'validating module does',
    () => {
      expect(loadsOpenApiBackend('helpers/client/contracts/openapi-documents.ts')).toBe(false)
      expect(loadsOpenApiBackend('runner/vitest/global-setup.ts')).toBe(false)
      expect(loadsOpenApiBackend('helpers/client/contracts/openapi-sink.ts')).toBe(false)
      expect(loadsOpenApiBackend('helpers/client/contracts/openapi.ts')).toBe(true)
    },
  )

  it(
    'hands the workers a copy of each JSON document: what a loader then does to the document does not reach ' + 'them',
    async () => {
      const read = await readDocuments(['given.json'], { definitions: { 'given.json': DOC } })
      const definitions = definitionsOf(read)
      ;(read.get('given.json') as { paths: Record<string, unknown> }).paths['/x'] = {}
      expect(definitions).toEqual({ 'given.json': DOC })
      await expect(
        readDocuments(['swagger.json'], { definitions: { 'swagger.json': { swagger: '2.0' } } }),
      ).rejects.toThrow(/swagger\.json: is a Swagger 2\.0 document/)
    },
  )
})
