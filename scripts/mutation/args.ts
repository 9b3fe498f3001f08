import { parseArgs } from 'node:util'

export interface MutationArgs {
  parallel: number
  /** Score bar, 0..1. */
  bar: number
  /** Defect names to run (default all); [] with --no-defects. */
  defects?: string[]
  /** Variation names to run (default all); [] with --no-variations. */
  variations?: string[]
  /** Suite files or folders (default every suite). */
  files?: string[]
  /** 'suite': every defect run runs the whole suite (default); 'area': only its area's suites (faster). */
  scope: 'suite' | 'area'
  timeoutMs: number
  /**
   * How many defects or variations share one run (each against a reference of its own, plus a faithful control;
   * scripts/harness/reference-batch.ts). 1 (default): each runs alone, defects against the embedded reference. Batches
   * pay off for short runs (--files): a whole-suite run costs about the same CPU in a batch as alone
   * (docs/mutation.md).
   */
  batch: number
  /** Where mutation.json and mutation.md go (default the reports folder). */
  out?: string
  /** A markdown file whose latest-results section is rewritten with the tables (docs/mutation.md). */
  docs?: string
  /**
   * Field-perturbation mode (--fields, --fields-sample N; docs/mutation.md "Field sensitivity"): instead of the defects
   * and variations, the field sensitivity of the suite (scripts/mutation/fields/).
   */
  fields?: FieldModeArgs
}

export interface FieldModeArgs {
  mode: 'all' | 'sample'
  sampleSize?: number
  /** The sample's seed: which fields of each operation (default 1). */
  sampleSeed: number
  /** Exit 1 when a selected non-free field is not caught. */
  failOnMiss: boolean
  /** A file of free fields, added to the oracle's table. */
  free?: string
  /** Only the fields of these operations. */
  operations?: string[]
  /** --fields-full: every field on all its files, without the quick pass (the slow way; docs/mutation.md). */
  full: boolean
  /**
   * --bar N with a field mode (the nightly's): exit 1 when the sensitivity is under N % or a field of a write's answer
   * is not caught.
   */
  bar?: number
}

/** Perturbed references per run in field mode when --batch is not given (plus the control). */
export const FIELD_BATCH_DEFAULT = 4

export const MUTATION_USAGE =
  `Usage: npm run mutation -- [--parallel 2] [--bar 100] [--defects a,b] [--variations ` +
  `a,b] [--no-defects] [--no-variations] [--files suites/auth,...] [--scope suite|area] [--timeout-s 600] [--batch ` +
  `1] [--out DIR] [--docs docs/mutation.md]
       npm run mutation -- --fields | --fields-sample N [--fields-seed 1] [--fail-on-miss] [--bar 95] ` +
  `[--fields-full] [--free FILE] [--operations a,b] [--files ...] [--batch ${FIELD_BATCH_DEFAULT}] ` +
  `[--parallel 2] [--timeout-s 600] [--out DIR]`

function list(v: string[] | undefined): string[] | undefined {
  return v === undefined
    ? undefined
    : v
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean)
}

/** Parses the mutation harness's arguments; throws with the usage on a bad one. */
export function parseMutationArgs(argv: string[]): MutationArgs {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      parallel: { type: 'string' },
      bar: { type: 'string' },
      defects: { type: 'string', multiple: true },
      variations: { type: 'string', multiple: true },
      'no-defects': { type: 'boolean' },
      'no-variations': { type: 'boolean' },
      files: { type: 'string', multiple: true },
      'timeout-s': { type: 'string' },
      out: { type: 'string' },
      docs: { type: 'string' },
      scope: { type: 'string' },
      batch: { type: 'string' },
      fields: { type: 'boolean' },
      'fields-sample': { type: 'string' },
      'fields-seed': { type: 'string' },
      'fail-on-miss': { type: 'boolean' },
      free: { type: 'string' },
      operations: { type: 'string', multiple: true },
      'fields-full': { type: 'boolean' },
    },
  })
  const int = (name: string, s: string | undefined, fallback: number, min: number, max: number): number => {
    if (s === undefined) return fallback
    const n = Number(s)
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name}: expected an integer ${min}..${max}, got '${s}'\n${MUTATION_USAGE}`)
    return n
  }
  const defects = v['no-defects'] ? [] : list(v.defects)
  const variations = v['no-variations'] ? [] : list(v.variations)
  const files = list(v.files)
  if (v.scope !== undefined && v.scope !== 'suite' && v.scope !== 'area')
    throw new Error(`--scope: expected suite or area, got '${v.scope}'\n${MUTATION_USAGE}`)
  const fieldMode = v.fields || v['fields-sample'] !== undefined
  if (
    !fieldMode &&
    (v['fail-on-miss'] ||
      v.free !== undefined ||
      v.operations !== undefined ||
      v['fields-seed'] !== undefined ||
      v['fields-full'])
  )
    throw new Error(
      `--fail-on-miss, --free, --operations, --fields-seed and --fields-full go with --fields or --fields-sample ` +
        `N\n${MUTATION_USAGE}`,
    )
  if (v.fields && v['fields-sample'] !== undefined)
    throw new Error(`--fields (the whole map) or --fields-sample N, not both\n${MUTATION_USAGE}`)
  const fields: FieldModeArgs | undefined = fieldMode
    ? {
        mode: v['fields-sample'] !== undefined ? 'sample' : 'all',
        ...(v['fields-sample'] !== undefined
          ? { sampleSize: int('fields-sample', v['fields-sample'], 40, 1, 100_000) }
          : {}),
        sampleSeed: int('fields-seed', v['fields-seed'], 1, 0, 1_000_000),
        failOnMiss: v['fail-on-miss'] ?? false,
        full: v['fields-full'] ?? false,
        ...(v.bar !== undefined ? { bar: int('bar', v.bar, 100, 0, 100) / 100 } : {}),
        ...(v.free ? { free: v.free } : {}),
        ...(list(v.operations) ? { operations: list(v.operations)! } : {}),
      }
    : undefined
  return {
    ...(fields ? { fields } : {}),
    scope: v.scope === 'area' ? 'area' : 'suite',
    parallel: int('parallel', v.parallel, 2, 1, 16),
    bar: int('bar', v.bar, 100, 0, 100) / 100,
    ...(defects ? { defects } : {}),
    ...(variations ? { variations } : {}),
    ...(files ? { files } : {}),
    timeoutMs: int('timeout-s', v['timeout-s'], 600, 10, 3600) * 1000,
    batch: int('batch', v.batch, fieldMode ? FIELD_BATCH_DEFAULT : 1, 1, 32),
    ...(v.out ? { out: v.out } : {}),
    ...(v.docs ? { docs: v.docs } : {}),
  }
}
