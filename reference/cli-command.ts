import { suggestedCommand } from '../common/suggested-command'
import { parseArgs } from 'node:util'
import { DEFECTS, isDefectName } from './defects/catalogue'
import { nearest, withDidYouMean } from '../common/did-you-mean'

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  defect: { type: 'string', multiple: true },
  variation: { type: 'string', multiple: true },
  'list-variations': { type: 'boolean' },
  chaos: { type: 'string' },
  'lock-ms': { type: 'string' },
  'issue-ms': { type: 'string' },
  'referral-ms': { type: 'string' },
  log: { type: 'boolean' },
  'list-defects': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const
import { DEMO_TENANTS } from './demo-data'
import { DEFAULT_OPTIONS } from './options'
import { startReference } from './server'
import { VARIATIONS, variationOptions } from './variations/catalogue'
import { formatChaos, parseChaos, type ChaosOptions } from './chaos/spec'

const USAGE =
  `Usage: ledger-conformance reference [--port 4010] [--host 127.0.0.1] [--defect NAME]... [--variation ` +
  `NAME]... [--lock-ms N] [--issue-ms N] [--referral-ms N] [--chaos SPEC] [--log] [--list-defects] ` +
  `[--list-variations]     (in a clone: npm run reference -- [options])`

/** A usage error, its message printed: exit 2. */
class UsageError extends Error {}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value)) {
    console.error(`--${name}: expected a non-negative integer, got '${value}'\n${USAGE}`)
    throw new UsageError(name)
  }
  return Number(value)
}

/**
 * ledger-conformance reference (npm run reference; the image's entry point reference/cli.ts): starts the reference
 * service and resolves when SIGINT or SIGTERM stopped it (0), or at once: a list printed (0), a usage error (2), a
 * service that could not start (1).
 */
export async function referenceCli(argv: string[]): Promise<number> {
  try {
    return await serve(argv)
  } catch (e) {
    if (e instanceof UsageError) return 2
    throw e
  }
}

async function serve(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS })
  } catch (e) {
    console.error(`ledger-conformance reference: ${withDidYouMean((e as Error).message, OPTIONS)}\n${USAGE}`)
    return 2
  }
  const v = parsed.values
  if (v.help) {
    console.log(USAGE)
    return 0
  }
  if (v['list-defects']) {
    for (const [name, d] of Object.entries(DEFECTS))
      console.log(`${name.padEnd(44)} ${d.clause.padEnd(30)} ${d.description}`)
    return 0
  }
  if (v['list-variations']) {
    for (const [name, d] of Object.entries(VARIATIONS)) console.log(`${name.padEnd(28)} ${d.description}`)
    return 0
  }
  const variationNames = (v.variation ?? []).flatMap((d) => d.split(',')).filter(Boolean)
  let chaos: ChaosOptions | undefined
  try {
    chaos = v.chaos === undefined ? undefined : parseChaos(v.chaos)
  } catch (e) {
    console.error(
      `--chaos: ${(e as Error).message}\n${USAGE}\n  e.g. --chaos "503=0.05,latency=0-200,seed=7" (see ` +
        `docs/reliability.md)`,
    )
    return 2
  }
  let variation
  try {
    variation = variationOptions(variationNames)
  } catch (e) {
    console.error(`--variation: ${(e as Error).message}\n${USAGE}`)
    return 2
  }
  const defects = (v.defect ?? []).flatMap((d) => d.split(',')).filter(Boolean)
  // an unknown defect is a usage error (2), like an unknown variation, not a service that failed to start
  const unknown = defects.filter((d) => !isDefectName(d))
  if (unknown.length > 0) {
    const names = Object.keys(DEFECTS)
    console.error(
      `--defect: unknown defect(s): ${unknown
        .map((d) => `${d}${nearest(d, names) ? ` (did you mean ${nearest(d, names)}?)` : ''}`)
        .join(', ')}; ledger-conformance reference --list-defects lists them`,
    )
    return 2
  }
  let ref
  try {
    ref = await startReference({
      ...variation,
      host: v.host ?? '127.0.0.1',
      port: int('port', v.port, 4010),
      lockMs: int('lock-ms', v['lock-ms'], variation.lockMs ?? DEFAULT_OPTIONS.lockMs),
      issueMs: int('issue-ms', v['issue-ms'], variation.issueMs ?? DEFAULT_OPTIONS.issueMs),
      referralMs: int('referral-ms', v['referral-ms'], variation.referralMs ?? DEFAULT_OPTIONS.referralMs),
      logRequests: v.log ?? false,
      defects,
      ...(chaos ? { chaos } : {}),
    })
  } catch (e) {
    if (e instanceof UsageError) throw e
    console.error(`reference service failed to start: ${(e as Error).message}`)
    return 1
  }
  const acme = DEMO_TENANTS[0]!
  console.log(`Reference service listening on ${ref.url}`)
  console.log(`  sales (ledger):  ${ref.url}/api/v1/ledger`)
  console.log(`  identity:        ${ref.url}/api/v1/identifier   (login: POST /login/{tenant})`)
  console.log(`  webhooks:        ${ref.url}/api/webhook`)
  console.log(`  health:          ${ref.url}/health`)
  console.log(`Demo credentials (public demo data):`)
  for (const u of acme.users)
    console.log(
      `  tenant ${acme.tag}: ${u.username} / ${u.password}${
        u.challenge ? '  (answers with an MFA challenge)' : ''
      }${u.tokenTtlSeconds ? `  (tokens live ${u.tokenTtlSeconds}s)` : ''}`,
    )
  console.log(
    `  other tenants: ${DEMO_TENANTS.slice(1)
      .map((t) => `${t.tag} (broker@${t.tag}.test)`)
      .join(', ')}, same password`,
  )
  if (defects.length > 0) console.log(`Defects ON: ${defects.join(', ')}`)
  if (chaos) console.log(`Chaos ON: ${formatChaos(chaos)}`)
  if (variationNames.length > 0) console.log(`Variations ON: ${variationNames.join(', ')}`)
  console.log(
    `Run the suite against it:\n  SALES_BASE_URL=${ref.url} AUTH_URL=${ref.url}/api/v1/identifier ` +
      `WEBHOOK_BASE_URL=${ref.url} TENANT=acme AUTH_USERNAME=broker@acme.test ` +
      `AUTH_PASSWORD=... ${suggestedCommand('run', 'npm run conformance')}`,
  )
  const signal = await new Promise<string>((done) => {
    const on = (s: NodeJS.Signals) => {
      process.off('SIGINT', on)
      process.off('SIGTERM', on)
      done(s)
    }
    process.on('SIGINT', on)
    process.on('SIGTERM', on)
  })
  console.log(`${signal}: stopping`)
  await ref.close()
  return 0
}
