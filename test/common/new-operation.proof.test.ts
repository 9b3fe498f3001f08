import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/project-root'
import { OPERATION_IDS_FILE, readCatalogueJson, renderOperationIds } from '../../scripts/operations/render'

/**
 * Every table of the code that must decide something for each operation (a `Record<OperationId, …>` or
 * `Record<BodyOperationId, …>`), by file. CONTRIBUTING.md "Adding an operation" names them; when a table is added,
 * this list grows with it.
 */
const TABLES_FOR_A_READ = ['common/operation-facts.ts']
const TABLES_FOR_A_WRITE_WITH_A_BODY = ['common/operation-facts.ts', 'helpers/checks/probes/requests.ts']

/**
 * A proof, not a fast test: it type-checks the whole project once (about a minute on a loaded 2-core machine).
 *
 * Type-checks the project's code (tsconfig.json less test/ and scripts/, which hold no table) as if
 * common/operations.json held two more operations, a read and a write with a body: the generated
 * common/operation-ids.ts is served from memory, nothing is written. Returns, per fake operation, the files whose
 * errors name it.
 */
function compileWithFakeOperations(fakes: { id: string; method: string }[]): Map<string, Set<string>> {
  const catalogue = readCatalogueJson()
  const ids = renderOperationIds({
    operations: [...catalogue.operations, ...fakes.map((f) => ({ ...f, service: 'sales' }))],
  })
  const config = ts.getParsedCommandLineOfConfigFile(
    join(PROJECT_ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )
  if (!config) throw new Error('tsconfig.json did not parse')
  const host = ts.createCompilerHost(config.options)
  const generated = join(PROJECT_ROOT, OPERATION_IDS_FILE)
  const readFile = host.readFile.bind(host)
  host.readFile = (file) => (file === generated ? ids : readFile(file))
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (file, lang, onError, fresh) =>
    file === generated ? ts.createSourceFile(file, ids, lang) : getSourceFile(file, lang, onError, fresh)
  const rootNames = config.fileNames.filter((f) => !/^(test|scripts)\//.test(f.slice(PROJECT_ROOT.length + 1)))
  const program = ts.createProgram({ rootNames, options: config.options, host })
  const named = new Map(fakes.map((f) => [f.id, new Set<string>()]))
  const unexplained: string[] = []
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file ? d.file.fileName.slice(PROJECT_ROOT.length + 1) : '(no file)'
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
    const fakesNamed = fakes.filter((f) => message.includes(`"${f.id}"`) || message.includes(`'${f.id}'`))
    for (const f of fakesNamed) named.get(f.id)!.add(file)
    if (fakesNamed.length === 0) unexplained.push(`${file}: ${message.slice(0, 300)}`)
  }
  named.set('(errors that name no fake operation)', new Set(unexplained))
  return named
}

describe('a new operation in the catalogue', () => {
  it('does not compile until every table that must decide for it has its row (a read; a write with a body)', {
    timeout: 300_000,
  }, () => {
    const named = compileWithFakeOperations([
      { id: 'sales.fake.read', method: 'GET' },
      { id: 'sales.fake.write', method: 'POST' },
    ])
    expect([...named.get('(errors that name no fake operation)')!]).toEqual([])
    expect([...named.get('sales.fake.read')!].sort()).toEqual(TABLES_FOR_A_READ)
    expect([...named.get('sales.fake.write')!].sort()).toEqual(TABLES_FOR_A_WRITE_WITH_A_BODY)
  })
})
