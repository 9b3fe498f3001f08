import { environmentNote, withFlag, type Invocation } from './command-line'

/**
 * The one production guard of every command that can write to a target (run, acceptance, explore, replay, and any
 * command added later: it declares itself in WRITE_GUARDS and takes WRITE_OPTIONS). The same flags everywhere:
 * `--allow-writes` (or ALLOW_WRITES=1) consents to data being created and changed on a target whose profile is not
 * `nonProduction: true`; `--read-only` asks for the reading part only, where the command has one. Given neither
 * against such a target, the command is refused with one text (writeRefusal), exit 2, before any request.
 */

/** What `--read-only` means for a command: what it does then, or why the command has no reading part. */
export type ReadOnlyMeaning = { offered: true; does: string } | { offered: false; because: string }

export interface WriteGuardSpec {
  /** What the command would do that writes, as "refusing to <action> against <target>". */
  action: string
  /** What the user accepts with --allow-writes: "<command> <consent>". */
  consent: string
  readOnly: ReadOnlyMeaning
}

/** Every command that can write to a target, by name (runner/commands/*: the command's `writeGuard`). */
export const WRITE_GUARDS = {
  run: {
    action: 'run suites that create or change data',
    consent: 'creates and changes data there (tagged with the run id, removed where the API allows)',
    readOnly: { offered: true, does: 'only the read-only suites; the verdict says it is partial' },
  },
  acceptance: {
    action: 'run the acceptance suites, which create or change data,',
    consent: 'creates and changes data there (tagged with the run id, removed where the API allows)',
    readOnly: {
      offered: false,
      because:
        'a tenant is accepted on every requirement, and most need data created (ledger-conformance run --read-only ' +
        'checks what reads, with a partial verdict)',
    },
  },
  explore: {
    action: 'explore, whose every sequence creates, changes and pays for quotes, policies and subscriptions,',
    consent: 'creates and changes data there (quotes left open are declined, subscriptions removed afterwards)',
    readOnly: { offered: false, because: 'every generated sequence creates and changes data' },
  },
  replay: {
    action: "re-send the check's writes",
    consent: "re-sends the check's POST, PUT, PATCH and DELETE requests there, as the run sent them",
    readOnly: {
      offered: true,
      does: "only the check's reads (GET, HEAD, OPTIONS) are re-sent, its writes listed as skipped",
    },
  },
} as const satisfies Record<string, WriteGuardSpec>

export type GuardedCommand = keyof typeof WRITE_GUARDS

/** The options every guarded command takes (node:util parseArgs), with the same meaning. */
export const WRITE_OPTIONS = {
  'allow-writes': { type: 'boolean' },
  'read-only': { type: 'boolean' },
} as const

/** The same lines in every guarded command's --help. */
export function writeOptionsHelp(command: GuardedCommand): string {
  const ro = WRITE_GUARDS[command].readOnly
  return [
    `  --allow-writes     consent to create and change data on a target whose profile is not nonProduction: true`,
    `                     (the same as ALLOW_WRITES=1); without it such a target is refused, exit 2, nothing sent`,
    ro.offered
      ? `  --read-only        ${ro.does}`
      : `  --read-only        refused (exit 2): ${command} cannot be read-only, ${ro.because}`,
  ].join('\n')
}

/** ALLOW_WRITES=1 (or true/yes): the operator accepts that the command creates and changes data. */
export function allowWritesFrom(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes)$/i.test((env.ALLOW_WRITES ?? '').trim())
}

/** The user's choice: --allow-writes, --read-only, or neither; both at once is a usage error (writeModeProblem). */
export interface WriteMode {
  allowWrites?: boolean | undefined
  readOnly?: boolean | undefined
}

/**
 * A usage problem of the flags themselves, or undefined: both given, or --read-only for a command that has no reading
 * part.
 */
export function writeModeProblem(command: GuardedCommand, mode: WriteMode): string | undefined {
  if (mode.allowWrites && mode.readOnly) return '--read-only and --allow-writes contradict each other: give one of them'
  const ro = WRITE_GUARDS[command].readOnly
  if (mode.readOnly && !ro.offered)
    return `--read-only: ${command} cannot be read-only: ${ro.because}. Nothing was sent`
  return undefined
}

export type WriteDecision =
  | { go: 'writes'; reason: string }
  | { go: 'reads-only'; reason: string }
  | { go: 'refused'; message: string }

export interface WriteGuardInput {
  command: GuardedCommand
  mode: WriteMode
  env: NodeJS.ProcessEnv
  /** Whether the work asked for writes at all (a run of read-only suites, a check whose requests all read: no). */
  writes: boolean
  /** Whether the profile declares the target non-production (production-guard.ts declaredNonProduction). */
  nonProduction: { ok: boolean; why: string }
  /** The sales URL of the target, named in the refusal. */
  target: string
  /** What would write, in a sentence of its own ("Writing suites selected: ..."), or nothing. */
  detail?: string
  invocation: Invocation
}

/**
 * Decides, before any request, whether the command may write: it may on a nonProduction target, with --allow-writes
 * or ALLOW_WRITES=1; with --read-only it reads only; work that writes nothing goes ahead anywhere. Otherwise it is
 * refused with writeRefusal's text.
 */
export function guardWrites(i: WriteGuardInput): WriteDecision {
  if (!i.writes) return { go: 'writes', reason: 'nothing that writes was asked for' }
  if (i.mode.readOnly && WRITE_GUARDS[i.command].readOnly.offered) return { go: 'reads-only', reason: '--read-only' }
  if (i.nonProduction.ok) return { go: 'writes', reason: i.nonProduction.why }
  if (i.mode.allowWrites) return { go: 'writes', reason: '--allow-writes' }
  if (allowWritesFrom(i.env)) return { go: 'writes', reason: 'ALLOW_WRITES=1' }
  return { go: 'refused', message: writeRefusal(i) }
}

/**
 * The refusal, the same for every command: what was refused and why, that nothing was sent, then the ways on, each
 * as the user's own command line with the flag added (the profile and every other option kept).
 */
export function writeRefusal(
  i: Pick<WriteGuardInput, 'command' | 'nonProduction' | 'target' | 'detail' | 'invocation'>,
): string {
  const spec = WRITE_GUARDS[i.command]
  const inv = i.invocation
  const note = environmentNote(inv)
  const readOnly = spec.readOnly.offered
    ? `Read only with '${withFlag(inv, '--read-only', ['--allow-writes'])}'${note} (${spec.readOnly.does}), `
    : `${i.command} cannot be read-only (${spec.readOnly.because}). `
  return (
    `Production guard: refusing to ${spec.action} against ${i.target}: ${i.nonProduction.why}. No request was ` +
    `sent.${i.detail ? ` ${i.detail}` : ''} ` +
    `${readOnly}${spec.readOnly.offered ? 'mark' : 'Mark'} a test environment nonProduction: true in its profile, ` +
    `or accept that ${i.command} ${spec.consent}: ` +
    `'${withFlag(inv, '--allow-writes', ['--read-only'])}'${note} (or ALLOW_WRITES=1).`
  )
}
