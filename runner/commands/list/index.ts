import { envHelp } from '../../../common/env-vars'
import { parseArgs } from 'node:util'
import { readRequirements, REQUIREMENTS_FILE, coverage } from '../../../common/requirements'
import { ConfigError, loadTargetConfig, withEmbeddedOrigin } from '../../../common/config/target-config'
import { collectCatalogue } from '../../run/selection/catalogue'
import { EXIT } from '../../run/verdict'
import type { Command } from '../command'
import { requirementsView } from './requirements-view'
import { withDidYouMean } from '../did-you-mean'
import { runConformance } from '../run/index'
import { applyTargetOptions } from '../target-options'
import { renderFieldSources } from './fields-view'

const HELP =
  `Usage: ledger-conformance list [selection options]     (in a clone: npm run conformance -- --list ` +
  `[selection options])

Prints one line per selected check: id  document §section  requirement. Sends no request and needs no target: the
suites are collected without running (with the profile's products when TARGET_PROFILE is given, else the reference
profile's). The count goes to stderr.

Selection options: --check <id or prefix>[,...]  --section "<document> §N"  --operation <operationId>
  --read-only  [suite files or folders]   (ledger-conformance run --help explains each)
  --profile FILE     the target profile whose products decide the per-product checks (sets TARGET_PROFILE)

Requirements view:
  --requirements     the requirements of the two specifications that the suite checks (common/requirements.json,
                     shipped in the package): id, document, section, a one-line paraphrase, and the checks that
                     cover each; --ids prints every check id instead of the first eight; --json the same as JSON

${envHelp('list')}
  (the profile's products decide the per-product checks)

Answer sources:
  --fields           the source of every field of every answer (helpers/oracle/answer-sources.ts): per operation and
                     status, each JSON path with its kind (echo, state, rule, agreement, free), what it must be and
                     the invariant that judges it; --json the same as JSON

Exit codes:
  0  the list was printed
  2  usage error, or a selection that matches no check (the nearest matches are printed)`

/**
 * list's own options: the selection of run, the profile (its products decide the per-product checks), the requirements
 * view.
 */
const LIST_OPTIONS = {
  check: { type: 'string', multiple: true },
  section: { type: 'string', multiple: true },
  operation: { type: 'string', multiple: true },
  'read-only': { type: 'boolean' },
  profile: { type: 'string' },
  requirements: { type: 'boolean' },
  fields: { type: 'boolean' },
  ids: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** `list --requirements [--ids] [--json]`: the requirements index with the checks of the catalogue that cover each. */
async function listRequirements(v: {
  ids?: boolean | undefined
  json?: boolean | undefined
  profile?: string | undefined
}): Promise<number> {
  let target
  try {
    target = loadTargetConfig(applyTargetOptions({ profile: v.profile }, { ...process.env }))
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e
    process.stderr.write(`(the profile does not load: ${e.message}; using the reference profile's products)\n`)
    target = loadTargetConfig({})
  }
  const index = readRequirements()
  const checks = await collectCatalogue({ target: withEmbeddedOrigin(target, 'http://127.0.0.1:9') })
  if (v.json) {
    const covered = coverage(index, checks)
    const out = {
      source: REQUIREMENTS_FILE,
      documents: index.documents,
      requirements: index.requirements.map((r) => ({ ...r, coveredBy: covered.get(r.id) ?? [] })),
    }
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
  } else {
    process.stdout.write(`${requirementsView(index, checks, { allIds: v.ids ?? false })}\n`)
  }
  process.stderr.write(`${index.requirements.length} requirements, ${checks.length} checks\n`)
  return EXIT.conforms
}

const FIELDS_OPTIONS = { fields: { type: 'boolean' }, json: { type: 'boolean' } } as const

/** `list --fields [--json]`: the answer source table (issue 39). Sends nothing, needs no target. */
async function listFields(argv: string[]): Promise<number> {
  let v
  try {
    v = parseArgs({ args: argv, options: FIELDS_OPTIONS }).values
  } catch (e) {
    process.stderr.write(
      `ledger-conformance list: ${withDidYouMean((e as Error).message, FIELDS_OPTIONS)}\n\n${HELP}\n`,
    )
    return EXIT.usage
  }
  const { text, rows } = renderFieldSources(v.json ?? false)
  process.stdout.write(`${text}\n`)
  process.stderr.write(`${rows} answer fields\n`)
  return EXIT.conforms
}

/** list's arguments checked against its own options (an unknown one gets list's "did you mean", not run's help). */
async function list(argv: string[]): Promise<number> {
  const cut = argv.indexOf('--')
  let parsed
  try {
    parsed = parseArgs({
      args: cut < 0 ? argv : argv.slice(0, cut),
      options: LIST_OPTIONS,
      allowPositionals: true,
      strict: true,
    })
  } catch (e) {
    process.stderr.write(`ledger-conformance list: ${withDidYouMean((e as Error).message, LIST_OPTIONS)}\n\n${HELP}\n`)
    return EXIT.usage
  }
  const v = parsed.values
  if (v.fields) return listFields(argv)
  if (v.requirements) return listRequirements(v)
  if (v.ids || v.json) {
    process.stderr.write(`ledger-conformance list: --ids and --json go with --requirements\n\n${HELP}\n`)
    return EXIT.usage
  }
  return runConformance(['--list', ...argv])
}

export const listCommand: Command = {
  name: 'list',
  summary: 'print the catalogue of checks (or the selected ones, or the requirements they cover) without running any',
  help: HELP,
  target: 'none',
  run: list,
}
