import { relative, join } from 'node:path'
import { INSTALLED, PROJECT_ROOT } from '../../../common/project-root'

/**
 * The command line the user typed, as they can type it again: how they started the tool (`prefix`: `npx
 * ledger-conformance`, `npm run conformance --`, `node bin/ledger-conformance.mjs`) and their own arguments. The
 * production guard repeats it with a flag added, every option kept (the profile first of all: a suggestion without
 * it would run against another target).
 */
export interface Invocation {
  prefix: string
  /** The user's arguments after the prefix (the command name included when they typed one). */
  args: string[]
  /** The command that runs (run, explore, replay, acceptance, ...). */
  command: string
  /** The profile came from TARGET_PROFILE, not from --profile: its value, to be named in a suggestion. */
  profileFromEnv?: string
  /** Target variables set in the environment (their names only): the suggestion needs them too. */
  targetVars?: string[]
}

/**
 * The variable the CLI passes its invocation in to the processes it starts (the run's vitest: the global setup's
 * guard).
 */
export const COMMAND_LINE_ENV = 'LEDGER_COMMAND_LINE'

const LAUNCHER = join('bin', 'ledger-conformance.mjs')

const TARGET_VARS = ['SALES_BASE_URL', 'AUTH_URL', 'WEBHOOK_BASE_URL', 'TENANT', 'AUTH_USERNAME', 'PRODUCT']

/**
 * How the user started the tool, from the CLI's arguments (`argv`, without node and the launcher) and the environment:
 * an npm script of a clone (`npm run conformance -- ...`: npm_lifecycle_event and its script), else `npx
 * ledger-conformance` for an installed package, else the launcher's path from the current folder.
 */
export function invocationOf(
  argv: readonly string[],
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  installed = INSTALLED,
  cwd = process.cwd(),
): Invocation {
  const extra = {
    ...(env.TARGET_PROFILE && !env.TARGET_PROFILES && !hasOption(argv, '--profile')
      ? { profileFromEnv: env.TARGET_PROFILE }
      : {}),
    ...(TARGET_VARS.some((v) => env[v]) ? { targetVars: TARGET_VARS.filter((v) => env[v]) } : {}),
  }
  const script = env.npm_lifecycle_event
    ? /\bledger-conformance\.mjs((?:\s+[^\s;&|]+)*)\s*$/.exec(env.npm_lifecycle_script ?? '')
    : null
  if (script) {
    const own = script[1]!.trim().split(/\s+/).filter(Boolean)
    if (own.every((a, i) => argv[i] === a))
      return { prefix: `npm run ${env.npm_lifecycle_event} --`, args: argv.slice(own.length), command, ...extra }
  }
  if (installed) return { prefix: 'npx ledger-conformance', args: [...argv], command, ...extra }
  // named, never started: the launcher's path as the user would type it from their folder
  const launcher = relative(cwd, join(PROJECT_ROOT, LAUNCHER))
  return { prefix: `node ${launcher}`, args: [...argv], command, ...extra }
}

/** The invocation the CLI passed in COMMAND_LINE_ENV, else `fallback` (a command called without the CLI's main). */
export function invocationFrom(env: NodeJS.ProcessEnv, fallback: () => Invocation): Invocation {
  const raw = env[COMMAND_LINE_ENV]
  if (raw) {
    try {
      const v = JSON.parse(raw) as Invocation
      if (typeof v.prefix === 'string' && Array.isArray(v.args) && typeof v.command === 'string') return v
    } catch {
      // not ours: the fallback
    }
  }
  return fallback()
}

function hasOption(args: readonly string[], name: string): boolean {
  const end = args.indexOf('--')
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === name || a.startsWith(`${name}=`))
}

/** One argument quoted for a POSIX shell when it needs it. */
export function shellQuote(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`
}

/**
 * The user's own command line with `flag` added (before a `--` that hands the rest to vitest) and the flags it
 * contradicts removed; a profile given by TARGET_PROFILE is named with --profile, so that the line pasted in another
 * shell still checks that target (target variables set in the environment: environmentNote).
 */
export function withFlag(inv: Invocation, flag: string, removing: readonly string[] = []): string {
  const cut = inv.args.indexOf('--')
  const own = (cut < 0 ? inv.args : inv.args.slice(0, cut)).filter((a) => !removing.includes(a))
  const rest = cut < 0 ? [] : inv.args.slice(cut)
  const profile = inv.profileFromEnv ? ['--profile', inv.profileFromEnv] : []
  const args = [...own, ...profile, ...(own.includes(flag) ? [] : [flag]), ...rest]
  return [inv.prefix, ...args.map(shellQuote)].join(' ')
}

/** " (with SALES_BASE_URL, TENANT set as now)" when target variables of the environment take part in the line. */
export function environmentNote(inv: Invocation): string {
  return inv.targetVars?.length ? ` (with ${inv.targetVars.join(', ')} set as now)` : ''
}
