import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { EXIT } from '../../run/verdict'
import type { Command } from '../command'
import { ConfigError, loadTargetConfig } from '../../../common/config/target-config'
import { AuthError, AuthSession, profileAuthOptions } from '../../../helpers/client/auth/session'
import { Dispatchers } from '../../../helpers/client/http/dispatchers'
import { send } from '../../../helpers/client/http/send'
import { TransportError, type HttpMethod, type HttpResult } from '../../../helpers/client/http/types'
import { Redactor, safeText } from '../../../helpers/client/evidence/redact'
import type { TrafficLine } from '../../../helpers/client/http/traffic-file'
import { readTraffic, type ChecksReport } from '../../run/results/results'
import {
  findCheck,
  planReplay,
  recordedRequest,
  resultOfCheck,
  exchangeSources,
  sentToken,
  type AllureResultLike,
  type RecordedRequest,
} from './plan'
import { parseArgs } from 'node:util'
import { withDidYouMean } from '../did-you-mean'
import { envHelp } from '../../../common/env-vars'
import { applyTargetOptions, TARGET_OPTIONS, TARGET_OPTIONS_HELP } from '../target-options'
import { WRITE_OPTIONS, writeModeProblem, writeOptionsHelp } from '../../run/guard/write-guard'
import { guardTarget } from '../../run/guard/target-guard'
import { isLogin, SAFE_METHODS } from './plan'
import { saysUnavailable } from '../../run/login-faults'

const HELP =
  `Usage: ledger-conformance replay <check-id> [options]     (in a clone: npm run conformance -- replay ` +
  `<check-id>)

Sends a check's requests of the last run again, one by one, against the same target, and prints each request and
what comes back (status, headers, body), redacted like every report. It reads the run's reports (checks.json,
run.json, the traffic file and the exchanges recorded in allure-results), resolves the target again from the
profile and the environment (TARGET_PROFILE, SALES_BASE_URL, ...: set them as for the run) and logs in with the
configured credentials: no secret is ever read from the reports (they are redacted there).

The production guard of every command (docs/reliability.md): the check's writes (POST, PUT, PATCH, DELETE) are
re-sent when the profile is nonProduction: true, or with --allow-writes (ALLOW_WRITES=1); with --read-only only its
reads (GET, HEAD, OPTIONS) are re-sent and the writes listed as skipped. A check with writes against any other target
is refused (exit 2, nothing sent), naming both ways. The run's own login is replaced by a fresh one. Ids in the paths
and bodies were created by the original run and may be stale (deleted, expired, cleaned up): a different answer may
come from that.

Options:
${TARGET_OPTIONS_HELP.replace(
  'the reports folder (sets REPORTS_DIR; default ./reports of the current folder)',
  'the reports folder of the run (sets REPORTS_DIR; default ./reports)',
)}
${writeOptionsHelp('replay')}
  -h, --help         this help

${envHelp('replay')}

Exit codes:
  0  the check's requests were replayed (whatever the target answered)
  2  usage or configuration error: no check id, an unknown check id, no reports of a run in the folder, the
     profile differs from the run's, the run's target was the embedded reference (stopped with the run), the
     production guard's refusal, a login refused (401/403 to the configured credentials); nothing was sent
  3  the target is unreachable, or says it is unavailable`

interface Args {
  id?: string
  reports?: string
  profile?: string
  allowWrites: boolean
  readOnly?: boolean
  problem?: string
}

const OPTIONS = { ...TARGET_OPTIONS, ...WRITE_OPTIONS, help: { type: 'boolean', short: 'h' } } as const

export function parseReplayArgs(argv: readonly string[]): Args {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    return { allowWrites: false, problem: withDidYouMean((e as Error).message, OPTIONS) }
  }
  const v = parsed.values
  const out: Args = {
    allowWrites: !!v['allow-writes'],
    ...(v['read-only'] ? { readOnly: true } : {}),
    ...(v.reports !== undefined ? { reports: v.reports } : {}),
    ...(v.profile !== undefined ? { profile: v.profile } : {}),
  }
  const [id, second] = parsed.positionals
  if (id !== undefined) out.id = id
  if (second !== undefined) return { ...out, problem: `one check id at a time (got '${id}' and '${second}')` }
  if (v.reports === '') return { ...out, problem: '--reports: needs a folder' }
  const mode = writeModeProblem('replay', { allowWrites: out.allowWrites, readOnly: out.readOnly })
  if (mode) return { ...out, problem: mode }
  if (out.id === undefined)
    out.problem =
      'which check? ledger-conformance replay <check-id> (ids: ledger-conformance list, or reports/checks.json)'
  return out
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown
}

function allureResults(dir: string): AllureResultLike[] {
  if (!existsSync(dir)) return []
  const out: AllureResultLike[] = []
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('-result.json')) continue
    try {
      const r = readJson(join(dir, f)) as AllureResultLike
      if (typeof r?.name === 'string') out.push(r)
    } catch {
      // a file being written or damaged: not this check's
    }
  }
  return out
}

/** The check's traffic lines of that run, in the order they were sent (runner/run/results/results.ts readTraffic). */
function trafficOf(dir: string, runId: string, title: string): TrafficLine[] {
  return readTraffic(dir, runId)
    .filter((t) => t.test?.endsWith(title))
    .sort((a, b) => a.at.localeCompare(b.at))
}

function block(prefix: string, text: string, r: Redactor): string {
  return safeText(text, r)
    .split('\n')
    .map((l) => `${prefix}${l}`)
    .join('\n')
}

/**
 * The answer's body as printed: JSON through the redactor's JSON walk (a secret's member masked, and learned, so that
 * a webhook secret a re-sent POST receives is masked wherever it shows: issue #37), other text as it came.
 */
function bodyText(res: HttpResult, r: Redactor): string {
  if (res.text === '') return ''
  if (res.body !== undefined && typeof res.body === 'object') return JSON.stringify(r.json(res.body), null, 2)
  try {
    // JSON under another content type: its secrets learned all the same
    r.json(JSON.parse(res.text))
  } catch {
    // not JSON
  }
  return res.text
}

/** ledger-conformance replay <check-id>: the check's recorded requests sent again, printed redacted. */
export async function replay(
  argv: readonly string[],
  out: (s: string) => void,
  err: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<number> {
  const args = parseReplayArgs(argv)
  if (args.problem) {
    err(`ledger-conformance replay: ${args.problem}\n`)
    return EXIT.usage
  }
  const dirArg = args.reports ?? (env.REPORTS_DIR || 'reports')
  const dir = isAbsolute(dirArg) ? dirArg : resolve(cwd, dirArg)
  const checksFile = join(dir, 'checks.json')
  if (!existsSync(checksFile)) {
    err(
      `ledger-conformance replay: no reports of a run in ${dirArg} (no checks.json): run the suite first ` +
        `(ledger-conformance run), or name the folder with --reports DIR\n`,
    )
    return EXIT.usage
  }
  const report = readJson(checksFile) as ChecksReport
  const found = findCheck(report, args.id!)
  if ('problem' in found) {
    err(`ledger-conformance replay: ${found.problem}\n`)
    return EXIT.usage
  }
  const { check } = found
  const run = report.run
  if (!run) {
    err(`ledger-conformance replay: ${checksFile} names no run (no run.json was written): nothing to replay\n`)
    return EXIT.usage
  }
  const result = resultOfCheck(allureResults(join(dir, 'allure-results')), check.id, run.startedAt)
  const requests = (result ? exchangeSources(result) : [])
    .map((s) => {
      try {
        return recordedRequest(readJson(join(dir, 'allure-results', s)))
      } catch {
        return undefined
      }
    })
    .filter((r): r is RecordedRequest => r !== undefined)
  const traffic = trafficOf(join(dir, 'traffic'), run.runId, check.title)
  if (requests.length === 0) {
    const seen = traffic.length
      ? ` The traffic file has ${traffic.length} of its exchanges (${traffic
          .map((t) => `${t.method} ${t.template} ` + `→ ${t.status ?? t.error ?? '?'}`)
          .join(', ')}), without their URLs and bodies.`
      : ''
    err(
      `ledger-conformance replay: no recorded exchange of ${check.id} in ${join(dirArg, 'allure-results')} ` +
        `(run ${run.runId}).${seen} Run it again with its reports (ledger-conformance run --check ${check.id}).\n`,
    )
    return EXIT.usage
  }

  env = applyTargetOptions({ profile: args.profile }, { ...env }, cwd)
  let config
  try {
    config = loadTargetConfig(env)
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e
    err(`ledger-conformance replay: the profile does not resolve:\n${e.problems.map((p) => `  ${p}`).join('\n')}\n`)
    return EXIT.usage
  }
  if (config.profileName !== run.profile && !run.profile.endsWith(config.profileName)) {
    err(
      `ledger-conformance replay: run ${run.runId} was against profile '${run.profile}', this environment resolves ` +
        `'${config.profileName}': set TARGET_PROFILE (and the variables) as for the run\n`,
    )
    return EXIT.usage
  }
  if (config.embedded) {
    err(
      `ledger-conformance replay: run ${run.runId} was against the embedded reference, which stopped with the run; ` +
        `start one (ledger-conformance reference) and run and replay against its URL (SALES_BASE_URL)\n`,
    )
    return EXIT.usage
  }

  // the one production guard (runner/run/guard/write-guard.ts): the check's writes, before any request
  const writes = requests.filter((r) => !SAFE_METHODS.has(r.method.toUpperCase()) && !isLogin(r, run))
  const guard = guardTarget({
    command: 'replay',
    argv,
    config,
    mode: { allowWrites: args.allowWrites, readOnly: args.readOnly },
    writes: writes.length > 0,
    env,
    detail:
      `${check.id} recorded ${writes.length} write(s) of ${requests.length} ` +
      `request(s): ${[...new Set(writes.map((w) => w.method.toUpperCase()))].join(', ')}.`,
  })
  if (guard.go === 'refused') {
    err(`ledger-conformance replay: ${guard.message}\n`)
    return EXIT.usage
  }

  const redactor = new Redactor()
  for (const u of Object.values(config.users)) redactor.addSecret(u?.password)
  const dispatchers = new Dispatchers({
    connectTimeoutMs: config.http.connectTimeoutMs,
    headersTimeoutMs: config.http.headersTimeoutMs,
    bodyTimeoutMs: config.http.bodyTimeoutMs,
  })
  const baseHeaders = { accept: 'application/json', ...config.headers.extra }
  try {
    const steps = planReplay(requests, { run, now: config.services, allowWrites: guard.go === 'writes' })
    out(
      `Replay of ${check.id} (${check.status} in run ${run.runId} of ${run.startedAt}) ` +
        `against ${safeText(config.services.salesBaseUrl, redactor)} (profile ${config.profileName})\n`,
    )
    out(`  requirement (${check.document} ${check.section}): ${safeText(check.requirement, redactor)}\n`)
    if (check.failure?.expected) out(`  expected: ${safeText(check.failure.expected, redactor)}\n`)
    if (check.failure?.actual) out(`  actual in the run: ${safeText(check.failure.actual, redactor)}\n`)
    out(
      `  ${requests.length} recorded request(s)${traffic.length ? ` (${traffic.length} in the traffic file)` : ''}; ` +
        `ids in them were created by run ${run.runId} and may be stale now (deleted, expired, cleaned up): a ` +
        `different answer may come from that\n`,
    )

    let token: string | undefined
    if (steps.some((s) => s.kind === 'send' && sentToken(s.request))) {
      const auth = new AuthSession({
        ...profileAuthOptions(config),
        redactor,
        post: (url, json) => send(dispatchers, { method: 'POST', url, json, headers: baseHeaders }),
      })
      try {
        token = await auth.token(config.users.primary)
        redactor.addSecret(token)
        out(
          `  logged in as ${config.users.primary.username} of tenant ${config.users.primary.tenant} (configured ` +
            `credentials)\n`,
        )
      } catch (e) {
        if (e instanceof TransportError) {
          err(`ledger-conformance replay: the target is unreachable: ${safeText(e.message, redactor)}\n`)
          return EXIT.inconclusive
        }
        if (e instanceof AuthError) {
          err(`ledger-conformance replay: ${safeText(e.message, redactor)}\n`)
          // credentials the identity service refuses are a configuration error (2, as for run); unavailable or broken
          // is 3
          const o = e.outcome
          const refused =
            o.kind === 'rejected' && o.result.status >= 400 && o.result.status < 500 && !saysUnavailable(o.result)
          return refused ? EXIT.usage : EXIT.inconclusive
        }
        throw e
      }
    }

    let sent = 0
    let unreachable = 0
    let skippedWrites = 0
    for (const [i, s] of steps.entries()) {
      const head = `\n[${i + 1}/${steps.length}] ${s.request.method.toUpperCase()} ${s.kind === 'send' ? s.url : s.request.url}   (in the run: ${s.request.originally})`
      if (s.kind === 'skip') {
        if (/--allow-writes|--read-only/.test(s.reason)) skippedWrites += 1
        out(`${block('', head, redactor)}\n  skipped: ${s.reason}\n`)
        continue
      }
      const headers = { ...s.headers, ...(token && sentToken(s.request) ? { authorization: `Bearer ${token}` } : {}) }
      out(`${block('', head, redactor)}\n`)
      for (const [k, v] of Object.entries(redactor.headers(headers))) out(`${block('  > ', `${k}: ${v}`, redactor)}\n`)
      if (s.request.body !== undefined) out(`${block('  > ', s.request.body, redactor)}\n`)
      try {
        const res = await send(dispatchers, {
          method: s.request.method.toUpperCase() as HttpMethod,
          url: s.url,
          headers,
          ...(s.request.body !== undefined ? { body: s.request.body } : {}),
        })
        sent += 1
        // the body first: a secret it carries is learned before the headers are printed
        const body = bodyText(res, redactor)
        out(
          `  < ${res.status}${
            res.status !== Number(s.request.originally) ? `   (was ${s.request.originally})` : '   (as in the run)'
          }\n`,
        )
        for (const [k, v] of Object.entries(redactor.headers(res.headers)))
          out(`${block('  < ', `${k}: ${v}`, redactor)}\n`)
        if (body) out(`${block('  < ', body, redactor)}\n`)
      } catch (e) {
        if (!(e instanceof TransportError)) throw e
        unreachable += 1
        out(`  < no response: ${safeText(e.message, redactor)}\n`)
      }
    }
    const skipped = steps.filter((s) => s.kind === 'skip').length
    out(
      `\nReplayed ${sent} of ${steps.length} request(s) of ${check.id}; ${skipped} skipped${
        skippedWrites ? ` (${skippedWrites} write(s), --read-only)` : ''
      }.\n`,
    )
    if (unreachable > 0 && sent === 0) {
      err(`ledger-conformance replay: the target is unreachable: no request got an answer\n`)
      return EXIT.inconclusive
    }
    return EXIT.conforms
  } finally {
    await dispatchers.close()
  }
}

export const replayCommand: Command = {
  name: 'replay',
  summary: "send a check's requests of the last run again and print what comes back",
  help: HELP,
  target: 'writes',
  run: (argv) =>
    replay(
      argv,
      (s) => process.stdout.write(s),
      (s) => process.stderr.write(s),
    ),
}
