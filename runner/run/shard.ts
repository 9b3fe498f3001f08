import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Selection } from './verdict'

/** One shard of a run: shard `index` of `count` (vitest splits the suite files among the shards). */
export interface Shard {
  index: number
  count: number
}

/** `run --shard i/n`: the shard, or an Error naming the option and what it expects. */
export function parseShard(value: string): Shard {
  const m = /^(\d{1,2})\/(\d{1,2})$/.exec(value.trim())
  const index = Number(m?.[1])
  const count = Number(m?.[2])
  if (!m || count < 1 || count > 64 || index < 1 || index > count)
    throw new Error(`--shard: expected i/n with 1 <= i <= n <= 64 (e.g. --shard 2/4), got '${value}'`)
  return { index, count }
}

/**
 * The variable through which the CLI asks the conformance config for a blob report too, at that path
 * (vitest.config.ts).
 */
export const SHARD_BLOB_ENV = 'LEDGER_SHARD_BLOB'

/**
 * The file a shard writes beside its reports: what `ledger-conformance merge` needs to know the shards belong together.
 */
export const SHARD_FILE = 'shard.json'

/** The blob report of a shard (vitest's blob reporter), in its reports folder: the merge's input. */
export const blobName = (s: Shard): string => `blob-${s.index}-${s.count}.json`

/** What a shard says of itself (<reports>/shard.json), written before its checks start. */
export interface ShardInfo extends Shard {
  runId: string
  seed: string
  /** What makes two shards parts of the same run: the target, the selection, the run options (never a secret). */
  scope: {
    profile: string
    salesBaseUrl: string
    tenant: string
    /** The CLI's selection and suite files ("(all)" for the whole catalogue). */
    selection: string
    strict: boolean
    thorough: boolean
  }
  /** The CLI's selection (the merged verdict says "partial" for it as the run would). */
  selectionDetail?: Selection
  /** The catalogue's size, when known (the shard's verdict says "partial: N of M checks; vitest shard i/n"). */
  catalogueSize?: number
  startedAt: string
}

export function writeShardInfo(dir: string, info: ShardInfo): void {
  writeFileSync(join(dir, SHARD_FILE), `${JSON.stringify(info, null, 2)}\n`)
}

export function readShardInfo(dir: string): ShardInfo | undefined {
  const file = join(dir, SHARD_FILE)
  if (!existsSync(file)) return undefined
  const v = JSON.parse(readFileSync(file, 'utf8')) as ShardInfo
  return typeof v.runId === 'string' && Number.isInteger(v.index) && Number.isInteger(v.count) && v.scope
    ? v
    : undefined
}

/**
 * The seed of a sharded run when CONFORMANCE_SEED is not set: derived from the run id, so the shards of one run (the
 * same CONFORMANCE_RUN_ID on every machine) generate their data from one seed, which the merged report names.
 */
export function shardSeed(runId: string): string {
  return String(createHash('sha256').update(runId).digest().readUInt32BE(0) % 2 ** 31)
}

/**
 * Why the given shard folders cannot be merged into one run, or [] when they can: each must be a shard's folder, all
 * of one run (run id) with the same number of shards, target, selection and options, and every shard 1..n there once.
 */
export function shardProblems(shards: { dir: string; info: ShardInfo | undefined }[]): string[] {
  const problems: string[] = []
  for (const s of shards)
    if (!s.info)
      problems.push(
        `${s.dir} is not a shard's reports folder: it holds no ${SHARD_FILE} (written by ledger-conformance run ` +
          `--shard i/n)`,
      )
  const infos = shards.filter((s): s is { dir: string; info: ShardInfo } => !!s.info)
  if (infos.length === 0) return problems.length ? problems : ['no shard folder given']
  const first = infos[0]!
  const differ = (what: string, of: (i: ShardInfo) => string, verb = 'differs') => {
    const values = [...new Set(infos.map((s) => of(s.info)))]
    if (values.length > 1)
      problems.push(
        `the shards are not of one run: ${what} ${verb} (${infos.map((s) => `${s.dir}: ${of(s.info)}`).join('; ')})`,
      )
  }
  differ('the run id (set the same CONFORMANCE_RUN_ID in every shard)', (i) => i.runId)
  differ('the number of shards', (i) => String(i.count))
  differ('the profile', (i) => i.scope.profile)
  differ('the target', (i) => `${i.scope.salesBaseUrl || 'embedded reference'} tenant ${i.scope.tenant}`)
  differ('the selection', (i) => i.scope.selection)
  differ(
    'the options',
    (i) => `${i.scope.strict ? '--strict' : 'not strict'}, ${i.scope.thorough ? '--thorough' : 'not thorough'}`,
    'differ',
  )
  differ('the seed', (i) => i.seed)
  if (problems.length) return problems
  const n = first.info.count
  for (let k = 1; k <= n; k++) {
    const at = infos.filter((s) => s.info.index === k)
    if (at.length === 0)
      problems.push(`shard ${k}/${n} is missing (its reports folder was not given, or its job did not upload it)`)
    if (at.length > 1) problems.push(`shard ${k}/${n} is given ${at.length} times (${at.map((s) => s.dir).join(', ')})`)
  }
  return problems
}
