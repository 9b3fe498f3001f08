import { loadTargetConfig, withEmbeddedOrigin } from '../../common/config/target-config'
import { startReference } from '../../reference/server'
import { DEFECTS } from '../../reference/defects/catalogue'
import { explore, type ExploreOptions } from '../../runner/commands/explore/explore'
import { MODEL_CASES, modelDefectsOf } from './model-cases'

/** One defect's exploration: found or not, the replay's length, the invariants broken, the cost. */
export interface DefectExploration {
  defect: string
  area: string
  /**
   * A new defect of issue 14's areas (webhooks, sales, policies) must be found; the older and auth ones cases.ts reuses
   * are listed only.
   */
  mustFind: boolean
  found: boolean
  replaySteps?: number
  /** The minimal sequence replayed alone on a fresh reference with the same defect broke an invariant again. */
  reproducedAlone?: boolean
  broken: string[]
  /** Steps run when the first sequence broke an invariant (before shrinking). */
  stepsToFailure?: number
  /** Steps run in all (generation and shrinking). */
  stepsRun: number
  seconds: number
  /** A tool error (the exploration could not run). */
  error?: string
}

/** The longest replay accepted for a must-find defect (issue 14). */
export const MAX_REPLAY = 12

/**
 * The defects of scripts/explore/model-cases.ts, each once: the new ones of the three areas first (must be found), then
 * the others.
 */
export function exploreDefectList(): { defect: string; area: string; mustFind: boolean }[] {
  const catalogue = DEFECTS as Record<string, unknown>
  const reused = new Set(MODEL_CASES.filter((c) => c.reused).map((c) => c.defect))
  const unexplored = new Set(MODEL_CASES.filter((c) => c.explore === false).map((c) => c.defect))
  const must = new Set(
    ['webhooks', 'sales', 'policies']
      .flatMap((a) => modelDefectsOf(a, catalogue))
      .filter((d) => !reused.has(d) && !unexplored.has(d)),
  )
  const seen = new Set<string>()
  const out: { defect: string; area: string; mustFind: boolean }[] = []
  for (const c of [
    ...MODEL_CASES.filter((c) => must.has(c.defect)),
    ...MODEL_CASES.filter((c) => !must.has(c.defect)),
  ]) {
    // issue 29's cases: exploration does not build their situations yet (scripts/explore/model-cases.ts,
    // ModelCase.explore)
    if (seen.has(c.defect) || c.explore === false) continue
    seen.add(c.defect)
    out.push({ defect: c.defect, area: c.area, mustFind: must.has(c.defect) })
  }
  return out
}

/** Explores the embedded reference with one defect enabled (the environment's profile otherwise). Never throws. */
export async function exploreDefect(
  entry: { defect: string; area: string; mustFind: boolean },
  options: ExploreOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DefectExploration> {
  const started = Date.now()
  const base = { ...entry, found: false, broken: [] as string[], stepsRun: 0 }
  try {
    let config = loadTargetConfig({ ...env, REFERENCE_DEFECTS: entry.defect, SALES_BASE_URL: undefined })
    if (!config.embedded) throw new Error('the defects need the embedded reference')
    const reference = await startReference({ ...config.reference, defects: config.reference.defects })
    try {
      config = withEmbeddedOrigin(config, reference.url)
      const explored = config
      // the replay runs alone, on a fresh reference with the same defect (no state of the other sequences)
      const r = await explore(config, options, async () => {
        const fresh = await startReference({ ...explored.reference, defects: explored.reference.defects })
        return { config: withEmbeddedOrigin(explored, fresh.url), close: () => fresh.close() }
      })
      const found = !r.ok && !r.error && r.replay !== undefined
      return {
        ...base,
        found,
        broken: r.broken ?? [],
        stepsRun: r.stepsRun,
        seconds: (Date.now() - started) / 1000,
        ...(found
          ? { replaySteps: r.replay!.steps.length, reproducedAlone: r.replay!.alone && r.replay!.reproduced }
          : {}),
        ...(r.stepsToFailure !== undefined ? { stepsToFailure: r.stepsToFailure } : {}),
        ...(r.error ? { error: r.error } : {}),
      }
    } finally {
      await reference.close()
    }
  } catch (e) {
    return { ...base, seconds: (Date.now() - started) / 1000, error: (e as Error).message }
  }
}

/** Whether a must-find defect was found with a short enough replay that reproduces alone on a fresh reference. */
export function meetsBar(d: DefectExploration): boolean {
  return !d.mustFind || (d.found && (d.replaySteps ?? Infinity) <= MAX_REPLAY && d.reproducedAlone === true)
}

/** The table printed at the end (markdown, so docs/model.md can take it as it is). */
export function formatDefectTable(rows: DefectExploration[]): string {
  const lines = [
    '| defect | must | found | replay steps | invariants broken | alone | steps to find | steps run | s |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (d) =>
        `| \`${d.defect}\` | ${d.mustFind ? 'yes' : 'no'} ` +
        `| ${d.found ? 'yes' : d.error ? `error: ${d.error.slice(0, 80)}` : '**no**'} | ${d.replaySteps ?? '-'} ` +
        `| ${d.broken.join(', ') || '-'} | ${d.found ? (d.reproducedAlone ? 'yes' : '**no**') : '-'} ` +
        `| ${d.stepsToFailure ?? '-'} | ${d.stepsRun} | ${d.seconds.toFixed(1)} |`,
    ),
  ]
  const must = rows.filter((d) => d.mustFind)
  const ok = must.filter(meetsBar)
  const replays = rows.filter((d) => d.found).map((d) => d.replaySteps!)
  lines.push(
    '',
    `${ok.length}/${must.length} must-find defects found with a replay of at most ${MAX_REPLAY} steps reproducing ` +
      `alone on a fresh reference; ${rows.filter((d) => d.found).length}/${rows.length} found in all; replay ` +
      `steps ${replays.length ? `${Math.min(...replays)}-${Math.max(...replays)}` : '-'}; ${rows.reduce((s, d) => s + d.seconds, 0).toFixed(0)} s`,
  )
  return lines.join('\n')
}
