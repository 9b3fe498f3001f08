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
   * pay off for short runs (--files): a whole-suite run costs about the same CPU in a batch as alone (docs/mutation.md).
   */
  batch: number
  /** Where mutation.json and mutation.md go (default the reports folder). */
  out?: string
  /** A markdown file whose latest-results section is rewritten with the tables (docs/mutation.md). */
  docs?: string
}

export const MUTATION_USAGE = `Usage: npm run mutation -- [--parallel 2] [--bar 100] [--defects a,b] [--variations a,b] [--no-defects] [--no-variations] [--files suites/auth,...] [--scope suite|area] [--timeout-s 600] [--batch 1] [--out DIR] [--docs docs/mutation.md]`

function list(v: string[] | undefined): string[] | undefined {
  return v === undefined ? undefined : v.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean)
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
    },
  })
  const int = (name: string, s: string | undefined, fallback: number, min: number, max: number): number => {
    if (s === undefined) return fallback
    const n = Number(s)
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name}: expected an integer ${min}..${max}, got '${s}'\n${MUTATION_USAGE}`)
    return n
  }
  const defects = v['no-defects'] ? [] : list(v.defects)
  const variations = v['no-variations'] ? [] : list(v.variations)
  const files = list(v.files)
  if (v.scope !== undefined && v.scope !== 'suite' && v.scope !== 'area') throw new Error(`--scope: expected suite or area, got '${v.scope}'\n${MUTATION_USAGE}`)
  return {
    scope: v.scope === 'area' ? 'area' : 'suite',
    parallel: int('parallel', v.parallel, 2, 1, 16),
    bar: int('bar', v.bar, 100, 0, 100) / 100,
    ...(defects ? { defects } : {}),
    ...(variations ? { variations } : {}),
    ...(files ? { files } : {}),
    timeoutMs: int('timeout-s', v['timeout-s'], 600, 10, 3600) * 1000,
    batch: int('batch', v.batch, 1, 1, 32),
    ...(v.out ? { out: v.out } : {}),
    ...(v.docs ? { docs: v.docs } : {}),
  }
}
