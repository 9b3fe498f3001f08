import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { parseArgs } from 'node:util'
import { PROJECT_ROOT } from '../../../common/project-root'
import { isHttpUrl } from '../../../common/config/env'
import { EXIT } from '../../run/verdict'
import type { Command } from '../command'
import { validateProfile } from '../validate/index'
import { withDidYouMean } from '../did-you-mean'

const HELP =
  `Usage: ledger-conformance init [FILE] [options]

Writes a commented target profile (JSONC) for your deployment: where the services are, the tenant, the user,
and whether suites may create data there. Every other setting keeps its documented default and is shown,
commented, to edit later. The file is validated as it is written (ledger-conformance validate FILE).

With any option given (or no terminal), nothing is asked: missing values take the defaults below, and the
required ones (--sales-url, --tenant, --username) stop with an error. With no option on a terminal, it asks.

Arguments:
  FILE                   where to write (default ./ledger-conformance.jsonc); never overwritten without --force

Options:
  --name NAME            profile name, shown in reports (default: the tenant)
  --sales-url URL        base URL of the sales service (required)
  --auth-url URL         identity service; login is POST {auth-url}/login/{tenant} (default ` +
  `{sales-url}/api/v1/identifier)
  --webhook-url URL      webhook service (default: the sales URL)
  --tenant TAG           tenant tag (required)
  --username NAME        the primary user (required)
  --password-env VAR     the environment variable holding its password (default AUTH_PASSWORD); the password
                         itself never goes into the file
  --product NAME         product (schema name) of the main scenarios (default home)
  --restricted-user NAME a user of the tenant with fewer rights (users.restricted; password from RESTRICTED_PASSWORD):
                         enables the rights checks (sales §5)
  --other-tenant TAG     a second tenant, and --other-tenant-user NAME its user (users.otherTenant; password from
                         OTHER_TENANT_PASSWORD): enables every tenant-isolation check (sales §5, webhooks §5)
  --receiver-url URL     a public URL at which the target reaches this machine's delivery receiver (tunnel,
                         ingress; extensions.webhooks.delivery.receiver.publicUrl): with a delivery trigger, enables
                         the webhook delivery checks (webhooks §6)
  Without them those checks are not applicable and their requirements untested (the run says so; --strict and
  acceptance make that INCONCLUSIVE).
  --non-production       the target may be written to: every suite runs. Without it, a run of the profile
                         says what it may do: --read-only (the read-only suites) or --allow-writes (every
                         suite); given neither, the production guard refuses the run and nothing is sent
  --openapi FILE|URL     the service's published OpenAPI document (3.0 or 3.1, JSON or YAML); repeat for each
                         service. Every exchange is judged against it (docs/contracts.md)
  --contract fail|warn   what a contract finding means: fail (default: the run does not conform) or warn
                         (a deviation); written with --openapi
  --force                overwrite FILE
  -h, --help             this help

Environment: none read (the profile names AUTH_PASSWORD or --password-env for the run).

Exit codes:
  0  the profile was written and is valid
  2  usage error: a required value missing, a bad URL or tag, FILE exists without --force`

interface Answers {
  name?: string | undefined
  salesUrl?: string | undefined
  authUrl?: string | undefined
  webhookUrl?: string | undefined
  tenant?: string | undefined
  username?: string | undefined
  passwordEnv?: string | undefined
  product?: string | undefined
  nonProduction: boolean
  restrictedUser?: string | undefined
  otherTenant?: string | undefined
  otherTenantUser?: string | undefined
  receiverUrl?: string | undefined
  /** Sources as the profile names them (files relative to the profile). */
  openapi?: string[] | undefined
  contract?: 'fail' | 'warn' | undefined
}

/** The profile text: the answers, the open points of the specs as comments with their defaults. */
type Optional =
  | 'authUrl'
  | 'webhookUrl'
  | 'restrictedUser'
  | 'otherTenant'
  | 'otherTenantUser'
  | 'receiverUrl'
  | 'openapi'
  | 'contract'

/**
 * The users and delivery receiver that enable the areas most often left untested (docs/reports.md "Requirement
 * coverage").
 */
function enablers(a: Pick<Answers, 'restrictedUser' | 'otherTenant' | 'otherTenantUser' | 'receiverUrl'>): string {
  const q = JSON.stringify
  const users: string[] = []
  if (a.restrictedUser)
    users.push(`"restricted": { "username": ${q(a.restrictedUser)}, "passwordEnv": "RESTRICTED_PASSWORD" }`)
  if (a.otherTenant && a.otherTenantUser)
    users.push(
      `"otherTenant": { "tenant": ${q(a.otherTenant)}, "username": ${q(a.otherTenantUser)}, "passwordEnv": ` +
        `"OTHER_TENANT_PASSWORD" }`,
    )
  const out: string[] = []
  if (users.length)
    out.push(
      `,\n\n  // users that enable the rights and tenant-isolation checks; their passwords come from these ` +
        `variables\n  "users": { ${users.join(',\n             ')} }`,
    )
  if (a.receiverUrl) {
    out.push(
      `,\n\n  // where the target reaches this machine's delivery receiver; the delivery checks also need a ` +
        `trigger\n  // (delivery.trigger: how to make the target emit an event, docs/webhooks.md)\n  "extensions": ` +
        `{ "webhooks": { "delivery": { "receiver": { "publicUrl": ${q(a.receiverUrl)} } } } }`,
    )
  }
  return out.join('')
}

export function profileText(a: Required<Omit<Answers, Optional>> & Pick<Answers, Optional>, schemaRef: string): string {
  const q = JSON.stringify
  return `// Target profile written by \`ledger-conformance init\`. Comments are allowed (JSONC).
// Check it:   npx ledger-conformance validate <this file>
// Run it:     ${a.passwordEnv}=... npx ledger-conformance run --profile <this file>
// Every field: ${schemaRef} (the profile schema), docs/profiles.md "Defaults" and docs/<area>.md.
{
  "$schema": ${q(schemaRef)},
  "name": ${q(a.name)},

  // Only a target marked nonProduction gets the suites that create and change data (quotes, policies,
  // payments, subscriptions, all tagged with the run id) without asking. false: a run passes --read-only (the
  // read-only suites) or --allow-writes (every suite); given neither, it is refused and nothing is sent.
  "nonProduction": ${a.nonProduction},

  "services": {
    // Base URLs: the suite appends the specifications' paths (/api/v1/ledger/..., /api/webhook/...).
    "salesBaseUrl": ${q(a.salesUrl)},
    // The identity service; login is POST {authUrl}/login/{tenant}.
    "authUrl": ${q(a.authUrl ?? `${a.salesUrl}/api/v1/identifier`)},
    "webhookBaseUrl": ${q(a.webhookUrl ?? a.salesUrl)}
  },

  "tenant": ${q(a.tenant)},
  "product": ${q(a.product)},

  // Never write a password here: name the environment variable that holds it.
  // AUTH_USERNAME / AUTH_PASSWORD override these in a run.
  "credentials": { "username": ${q(a.username)}, "passwordEnv": ${q(a.passwordEnv)} }${enablers(a)}${
    a.openapi && a.openapi.length > 0
      ? `,

  // The service's published OpenAPI documents (files relative to this profile, or URLs): every exchange of the
  // run is judged against them; each finding kind on each operation is a contract check CT-<operation>-<kind>.
  // Authoring errors of a document are listed as warnings and never fail a run.
  "openapi": ${q(a.openapi)},
  // fail: a contract finding fails the run (DOES NOT CONFORM); warn: it is a deviation, listed, and the run may
  // conform. A status an operation does not document is a deviation either way (docs/contracts.md).
  "contract": ${q(a.contract ?? 'fail')}`
      : ''
  }

  // Optional, with their defaults (uncomment and edit; add a comma after the field above):
  // "users": { "restricted": { "username": "...", "passwordEnv": "RESTRICTED_PASSWORD" },
  //            "otherTenant": { "tenant": "...", "username": "...", "passwordEnv": "OTHER_TENANT_PASSWORD" } },
  //   checks that need one of these users are "not applicable" without it
  // "headers": { "tenant": "X-TENANT-ID", "acceptLanguage": "en" },
  // "auth": { "tokenPointer": "/authentication_result/access_token" },
  // "statuses": { "pending": ["pending"], "success": ["success"], "failure": ["failure"] },
  // "polling": { "initialDelayMs": 25, "maxDelayMs": 500, "maxRatePerSecond": 10,
  //              "actionsDeadlineMs": 30000, "requestDeadlineMs": 60000, "longPolling": false },
  // "http": { "connectTimeoutMs": 3000, "headersTimeoutMs": 15000, "bodyTimeoutMs": 15000 },
  // "features": { "referral": true, "bindRequiredBeforeIssue": true },
  // "deviations": { "webhook-secret-type": "warn" },
  // "extensions": { "sales": { ... }, "policies": { ... }, "webhooks": { ... } }
  //   (docs/sales.md, docs/policies.md, docs/webhooks.md)
}
`
}

async function ask(a: Answers): Promise<Answers> {
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  try {
    const q = async (label: string, fallback?: string) => {
      const v = (await rl.question(`${label}${fallback ? ` [${fallback}]` : ''}: `)).trim()
      return v || fallback
    }
    const salesUrl = await q('Base URL of the sales service')
    const tenant = await q('Tenant tag')
    const username = await q('Username of the primary user')
    const passwordEnv = await q('Environment variable holding its password', 'AUTH_PASSWORD')
    const product = await q('Product of the main scenarios', 'home')
    const np = await q('May the suites create and change data on this target (nonProduction)? y/n', 'n')
    // what enables the areas most often left untested; empty: those checks are not applicable
    const restrictedUser = await q('A user of this tenant with fewer rights (empty: none; rights checks untested)')
    const otherTenant = await q("A second tenant's tag (empty: none; tenant isolation untested)")
    const otherTenantUser = otherTenant ? await q(`Username of a user of tenant ${otherTenant}`) : undefined
    const receiverUrl = await q(
      "A public URL at which the target reaches this machine's delivery receiver (empty: none; webhook delivery " +
        'untested)',
    )
    return {
      ...a,
      salesUrl,
      tenant,
      username,
      passwordEnv,
      product,
      nonProduction: /^y/i.test(np ?? ''),
      restrictedUser,
      otherTenant,
      otherTenantUser,
      receiverUrl,
    }
  } finally {
    rl.close()
  }
}

function usage(message: string): number {
  process.stderr.write(`init: ${message}\n(ledger-conformance init --help)\n`)
  return EXIT.usage
}

const INIT_OPTIONS = {
  name: { type: 'string' },
  'sales-url': { type: 'string' },
  'auth-url': { type: 'string' },
  'webhook-url': { type: 'string' },
  tenant: { type: 'string' },
  username: { type: 'string' },
  'password-env': { type: 'string' },
  product: { type: 'string' },
  'restricted-user': { type: 'string' },
  'other-tenant': { type: 'string' },
  'other-tenant-user': { type: 'string' },
  'receiver-url': { type: 'string' },
  'non-production': { type: 'boolean' },
  openapi: { type: 'string', multiple: true },
  contract: { type: 'string' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** ledger-conformance init: a commented profile from flags or, on a terminal with no flag, from questions. */
export const initCommand: Command = {
  name: 'init',
  summary: 'write a commented target profile from a few flags or questions',
  help: HELP,
  target: 'none',
  async run(argv) {
    let parsed
    try {
      parsed = parseArgs({ args: argv, allowPositionals: true, options: INIT_OPTIONS })
    } catch (e) {
      return usage(withDidYouMean((e as Error).message, INIT_OPTIONS))
    }
    const v = parsed.values
    if (parsed.positionals.length > 1) return usage(`one FILE at most, got ${parsed.positionals.join(' ')}`)
    const file = resolve(process.cwd(), parsed.positionals[0] ?? 'ledger-conformance.jsonc')
    if (existsSync(file) && !v.force) return usage(`${file} exists; --force overwrites it`)
    let a: Answers = {
      name: v.name,
      salesUrl: v['sales-url'],
      authUrl: v['auth-url'],
      webhookUrl: v['webhook-url'],
      tenant: v.tenant,
      username: v.username,
      passwordEnv: v['password-env'],
      product: v.product,
      nonProduction: v['non-production'] ?? false,
      restrictedUser: v['restricted-user'],
      otherTenant: v['other-tenant'],
      otherTenantUser: v['other-tenant-user'],
      receiverUrl: v['receiver-url'],
    }
    if (v.contract !== undefined && v.contract !== 'fail' && v.contract !== 'warn')
      return usage(`--contract: must be fail or warn, got '${v.contract}'`)
    // a document file is named relative to the profile, as the profile resolves it
    const openapi = (v.openapi ?? []).map((s) =>
      /^https?:\/\//i.test(s) ? s : relative(dirname(file), resolve(process.cwd(), s)) || '.',
    )
    const flagged = Object.keys(v).some((k) => k !== 'force')
    if (!flagged && process.stdin.isTTY) a = await ask(a)
    const missing = [
      ['--sales-url', a.salesUrl],
      ['--tenant', a.tenant],
      ['--username', a.username],
    ]
      .filter(([, x]) => !x)
      .map(([f]) => f)
    if (missing.length > 0) return usage(`required: ${missing.join(', ')}`)
    if (!!a.otherTenant !== !!a.otherTenantUser)
      return usage('--other-tenant and --other-tenant-user go together (the tenant and its user)')
    for (const [flag, url] of [
      ['--sales-url', a.salesUrl],
      ['--auth-url', a.authUrl],
      ['--webhook-url', a.webhookUrl],
      ['--receiver-url', a.receiverUrl],
    ] as const) {
      if (url !== undefined && !isHttpUrl(url)) return usage(`${flag}: must be an absolute http(s) URL, got '${url}'`)
    }
    const passwordEnv = a.passwordEnv ?? 'AUTH_PASSWORD'
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(passwordEnv))
      return usage(`--password-env: must be a variable name, got '${passwordEnv}'`)
    const schema = resolve(PROJECT_ROOT, 'fixtures/targets/profile.schema.json')
    const rel = relative(dirname(file), schema)
    const schemaRef = isAbsolute(rel) ? schema : rel.startsWith('.') ? rel : `./${rel}`
    const text = profileText(
      {
        name: a.name ?? a.tenant!,
        salesUrl: a.salesUrl!.replace(/\/+$/, ''),
        authUrl: a.authUrl?.replace(/\/+$/, ''),
        webhookUrl: a.webhookUrl?.replace(/\/+$/, ''),
        tenant: a.tenant!,
        username: a.username!,
        passwordEnv,
        product: a.product ?? 'home',
        nonProduction: a.nonProduction,
        ...(openapi.length > 0 ? { openapi, contract: (v.contract as 'fail' | 'warn' | undefined) ?? 'fail' } : {}),
        restrictedUser: a.restrictedUser,
        otherTenant: a.otherTenant,
        otherTenantUser: a.otherTenantUser,
        receiverUrl: a.receiverUrl,
      },
      schemaRef,
    )
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    const check = validateProfile(file, {}, false)
    if (check.problems.length > 0) {
      rmSync(file, { force: true })
      return usage(
        `the values make an invalid profile (nothing written):\n${check.problems.map((p) => `  - ${p}`).join('\n')}`,
      )
    }
    process.stdout.write(
      `wrote ${relative(process.cwd(), file) || file}: ${check.summary}\n` +
        `next: ${passwordEnv}=... npx ledger-conformance run ` +
        `--profile ${relative(process.cwd(), file) || file}${
          a.nonProduction ? '' : ' --read-only   (not nonProduction: --allow-writes to run every suite)'
        }\n`,
    )
    return EXIT.conforms
  },
}
