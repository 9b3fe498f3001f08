import { envHelp } from '../../../common/env-vars'
import { isAbsolute, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ConfigError, loadTargetConfig, readProfile } from '../../../common/config/target-config'
import type { TargetConfig } from '../../../common/config/types'
import { openApiSources } from '../../../helpers/client/contracts/openapi-documents'
import { documentWarningLines } from '../../run/results/document-warnings'
import { EXIT } from '../../run/verdict'
import type { Command } from '../command'
import { withDidYouMean } from '../did-you-mean'

const HELP =
  `Usage: ledger-conformance validate <profile>... [--env]     (or --profile FILE, repeatable; none: ` +
  `TARGET_PROFILE)

Checks target profiles (JSON or JSONC, anywhere) against the profile schema, with their "extends" chain, and
resolves them as a run would. Sends no request to the target's API and starts nothing. Every problem names the
file and the field. The OpenAPI documents a profile names ("openapi") are loaded as a run loads them (a URL is
fetched within the preflight deadline and size cap; one naming {salesBaseUrl} of the embedded reference is left to
the run) and their authoring errors printed as document warnings, which do not make a profile invalid; a document
that cannot be read or is not OpenAPI 3.0/3.1 does.

Options:
  --env                also require what the run will need from this environment: the passwords named by
                       passwordEnv (and AUTH_PASSWORD when the profile has no password of its own). Without it,
                       an unset password variable is only noted.
  -h, --help           this help

${envHelp('validate')}
  (checked too, since they override the profile in a run; the passwordEnv variables: see --env)

Exit codes:
  0  every profile is valid
  2  usage or configuration error: a profile is invalid or missing, or names a document that cannot be read or
     is not OpenAPI 3.0/3.1 (each problem is printed, naming the field or the document)`

/** The profile's OpenAPI documents loaded as a run loads them: their warnings, or the problem that stops a run. */
export async function validateDocuments(
  config: TargetConfig,
): Promise<{ problems: string[]; warnings: { source: string; pointer: string; message: string }[]; notes: string[] }> {
  const sources = openApiSources(config).filter((s) => !(config.embedded && s.includes('{')))
  const notes =
    config.embedded && (config.openapi ?? []).some((s) => s.includes('{'))
      ? ['openapi: a document of the embedded reference ({salesBaseUrl}) is loaded by the run']
      : []
  if (sources.length === 0) return { problems: [], warnings: [], notes }
  try {
    const { OpenApiContracts } = await import('../../../helpers/client/contracts/openapi')
    const loaded = await OpenApiContracts.load(sources, {
      deadlineMs: config.http.preflightDeadlineMs,
      maxBytes: config.http.maxResponseBytes,
    })
    return {
      problems: [],
      warnings: loaded.warnings,
      notes: [...notes, `openapi: ${sources.length} document(s) loaded, ${loaded.warnings.length} warning(s)`],
    }
  } catch (e) {
    return { problems: [(e as Error).message], warnings: [], notes }
  }
}

/** A problem of the environment rather than of the file: an unset password variable. */
const UNSET_PASSWORD = /passwordEnv: environment variable (\S+) is not set|\.password: is required \(or set passwordEnv/

/** The problems of one profile (empty when valid) and notes on what the run will still need. */
export function validateProfile(
  path: string,
  env: NodeJS.ProcessEnv,
  strictEnv: boolean,
): { problems: string[]; notes: string[]; summary?: string; config?: TargetConfig } {
  try {
    readProfile(path)
    const c = loadTargetConfig({ ...env, TARGET_PROFILE: path, TARGET_PROFILES: '' })
    const where = c.embedded ? 'the embedded reference service' : c.services.salesBaseUrl
    return {
      problems: [],
      notes: [],
      config: c,
      summary: `profile '${c.profileName}': ${where}, tenant ${c.tenant}, ${
        c.nonProduction ? 'nonProduction (writing suites allowed)' : 'production (read-only unless --allow-writes)'
      }`,
    }
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e
    if (strictEnv) return { problems: e.problems, notes: [] }
    const problems = e.problems.filter((p) => !UNSET_PASSWORD.test(p))
    const notes = e.problems.filter((p) => UNSET_PASSWORD.test(p)).map((p) => `${p}: a run needs it`)
    if (problems.length > 0 || notes.length === 0) return { problems, notes }
    // only passwords were missing: resolve once more with stand-ins to check everything else
    const standIns: NodeJS.ProcessEnv = { AUTH_PASSWORD: env.AUTH_PASSWORD || 'x' }
    for (const p of e.problems) {
      const m = /passwordEnv: environment variable (\S+) is not set/.exec(p)
      if (m) standIns[m[1]!] = 'x'
    }
    const again = validateProfile(path, { ...env, ...standIns }, true)
    return { ...again, notes }
  }
}

const VALIDATE_OPTIONS = {
  profile: { type: 'string', multiple: true },
  env: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** ledger-conformance validate <profile>...: schema and resolution of profiles, no request. */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check target profiles (schema, extends, environment overrides) without sending a request',
  help: HELP,
  target: 'none',
  async run(argv) {
    let parsed
    try {
      parsed = parseArgs({ args: argv, allowPositionals: true, options: VALIDATE_OPTIONS })
    } catch (e) {
      process.stderr.write(
        `ledger-conformance validate: ${withDidYouMean((e as Error).message, VALIDATE_OPTIONS)}\n\n${HELP}\n`,
      )
      return EXIT.usage
    }
    // --profile FILE (repeatable) names a profile as every other command does; positional files too
    const files = [...(parsed.values.profile ?? []), ...parsed.positionals]
    // none named: the profile of the environment, as every command reads it (TARGET_PROFILE)
    if (files.length === 0 && process.env.TARGET_PROFILE) files.push(process.env.TARGET_PROFILE)
    if (files.length === 0) {
      process.stderr.write(
        `validate: name at least one profile file (or --profile FILE, or TARGET_PROFILE)\n\n${HELP}\n`,
      )
      return EXIT.usage
    }
    let ok = true
    for (const file of files) {
      const path = isAbsolute(file) ? file : resolve(process.cwd(), file)
      const r = validateProfile(path, process.env, parsed.values.env ?? false)
      if (r.problems.length === 0 && r.config) {
        const docs = await validateDocuments(r.config)
        r.problems.push(...docs.problems)
        r.notes.push(...docs.notes)
        for (const line of documentWarningLines(docs.warnings)) process.stdout.write(`${line}\n`)
      }
      if (r.problems.length > 0) {
        ok = false
        process.stderr.write(`INVALID ${file}\n${r.problems.map((p) => `  - ${p}`).join('\n')}\n`)
      } else {
        process.stdout.write(`valid   ${file}: ${r.summary}\n`)
      }
      for (const n of r.notes) process.stdout.write(`  note: ${n}\n`)
    }
    return ok ? EXIT.conforms : EXIT.usage
  },
}
