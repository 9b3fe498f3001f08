/**
 * npm run explore:seeds -- [--seeds 1-20] [--steps 60] [--time-limit-s 240] [--jobs 1] [--targets
 * faithful,variations,defects]
 * [--variations all|a,b] [--rotate N] [--defects concurrency|a,b] [--max-sequence 12] [--steps-per-second 20]
 *
 * The reference over many explore seeds with parallel steps (issue 41, docs/concurrency.md "Measured"): the faithful
 * reference and every benign variation explored once per seed (each a reference of its own, started here; a variation
 * with the profile a target with it would have; `--rotate N`: N variations per seed in turn, so that 20 seeds cover
 * every variation on a machine that cannot run them all), and each race defect explored seed after seed until one finds
 * it
 * (its minimal sequence replayed alone on a fresh reference). Prints one line per exploration and a markdown table;
 * exits 1 when the faithful reference or a variation broke an invariant (a false alarm) or a defect was found on no
 * seed, 2 on a usage error. At most --jobs explorations at a time (default 1: a shared machine).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { loadTargetConfig, withEmbeddedOrigin } from '../common/config/target-config'
import type { TargetConfig } from '../common/config/types'
import { startReference } from '../reference/server'
import { CONCURRENCY_DEFECTS } from '../reference/defects/concurrency'
import { DEFECTS } from '../reference/defects/catalogue'
import { VARIATIONS, variationOptions, type VariationInfo, type VariationName } from '../reference/variations/catalogue'
import { explore, exploreVerdict, type ExploreOptions, type ExploreResult } from '../runner/commands/explore/explore'
import { EXPLORE_OPTIONS, exploreOptionsFrom } from '../runner/commands/explore/options'
import { preflight } from '../runner/run/preflight'
import { referenceProfile } from './harness/reference-batch'
import { mapPool } from './mutation/pool'

const EXPLORE_SEEDS_USAGE =
  'Usage: npm run explore:seeds -- [--seeds 1-20] [--steps 60] [--time-limit-s S] [--jobs 1] [--targets ' +
  'faithful,variations,defects] [--variations all|a,b] [--rotate N] [--defects concurrency|a,b]'

interface Target {
  kind: 'faithful' | 'variation' | 'defect'
  name: string
}

interface Row {
  target: Target
  seed: number
  verdict: string
  /** For a defect: found (an invariant broken); for the others: green (CONFORMS). */
  ok: boolean
  broken: string[]
  steps: number
  parallel: number
  replaySteps?: number
  reproducedAlone?: boolean
  seconds: number
  error?: string
}

/** "1-20" or "1,4,7" -> the seeds. */
function parseSeeds(spec: string): number[] {
  const out: number[] = []
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part)
    if (!m) throw new Error(`--seeds: expected ranges like 1-20 or 1,4,7, got '${spec}'`)
    const [a, b] = [Number(m[1]), Number(m[2] ?? m[1])]
    for (let s = Math.min(a, b); s <= Math.max(a, b); s++) out.push(s)
  }
  return [...new Set(out)]
}

/** A reference for the target, the config to explore it with, and how to start a fresh one for the replay. */
async function targetConfig(
  target: Target,
  dir: string,
): Promise<{
  config: TargetConfig
  fresh: () => Promise<{ config: TargetConfig; close: () => Promise<void> }>
  close: () => Promise<void>
}> {
  if (target.kind === 'variation') {
    const name = target.name as VariationName
    const info: VariationInfo = VARIATIONS[name]
    const profilePath = join(dir, `${name}.json`)
    writeFileSync(
      profilePath,
      `${JSON.stringify(referenceProfile({ ...(info.profile ?? {}), name: `reference+${name}` }), null, 2)}\n`,
    )
    const start = async () => {
      const ref = await startReference(variationOptions([name]))
      const config = await preflight(
        loadTargetConfig({
          ...process.env,
          REFERENCE_DEFECTS: undefined,
          TARGET_PROFILE: profilePath,
          SALES_BASE_URL: ref.url,
          AUTH_URL: `${ref.url}/api/v1/identifier`,
          WEBHOOK_BASE_URL: ref.url,
        }),
      )
      return { config, close: () => ref.close() }
    }
    const first = await start()
    return { ...first, fresh: start }
  }
  const defects = target.kind === 'defect' ? target.name : ''
  const base = loadTargetConfig({
    ...process.env,
    REFERENCE_DEFECTS: defects,
    SALES_BASE_URL: undefined,
    TARGET_PROFILE: undefined,
  })
  const start = async () => {
    const ref = await startReference({ ...base.reference, defects: base.reference.defects })
    const config = await preflight(withEmbeddedOrigin(base, ref.url))
    return { config, close: () => ref.close() }
  }
  const first = await start()
  return { ...first, fresh: start }
}

async function exploreOnce(target: Target, seed: number, options: ExploreOptions): Promise<Row> {
  const started = Date.now()
  const dir = mkdtempSync(join(tmpdir(), 'lc-explore-seeds-'))
  const base = { target, seed, broken: [] as string[], steps: 0, parallel: 0 }
  try {
    const t = await targetConfig(target, dir)
    let r: ExploreResult
    try {
      r = await explore(t.config, { ...options, seed }, t.fresh)
    } finally {
      await t.close()
    }
    const verdict = exploreVerdict(r).verdict
    const broken = r.broken ?? []
    const found = !r.ok && !r.error && r.replay !== undefined
    return {
      ...base,
      verdict,
      ok: target.kind === 'defect' ? found : verdict === 'CONFORMS',
      broken,
      steps: r.stepsRun,
      parallel: r.parallelSteps ?? 0,
      seconds: (Date.now() - started) / 1000,
      ...(found
        ? { replaySteps: r.replay!.steps.length, reproducedAlone: r.replay!.alone && r.replay!.reproduced }
        : {}),
      ...(r.error ? { error: r.error } : {}),
    }
  } catch (e) {
    return {
      ...base,
      verdict: 'INCONCLUSIVE',
      ok: false,
      seconds: (Date.now() - started) / 1000,
      error: (e as Error).message,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function line(r: Row): string {
  const what =
    r.target.kind === 'defect'
      ? r.ok
        ? `FOUND ${r.broken.join(', ')}, replay ${r.replaySteps} step(s)${
            r.reproducedAlone ? ', reproduced alone' : ', NOT reproduced alone'
          }`
        : r.error
          ? `error: ${r.error}`
          : 'not found'
      : `${r.verdict}${r.broken.length ? ` (broke ${r.broken.join(', ')})` : ''}${r.error ? `: ${r.error}` : ''}`
  return `${`${r.target.kind} ${r.target.name}`.padEnd(48)} seed ${String(r.seed).padStart(3)}  ${what}  (${r.steps} steps, ${r.parallel} parallel, ${r.seconds.toFixed(1)} s)`
}

/**
 * The markdown table: per target, the seeds run, green or found on which, the steps and parallel steps, the seconds.
 */
function seedsTable(rows: Row[]): string {
  const byTarget = new Map<string, Row[]>()
  for (const r of rows)
    byTarget.set(`${r.target.kind}|${r.target.name}`, [...(byTarget.get(`${r.target.kind}|${r.target.name}`) ?? []), r])
  const out = ['| target | seeds run | result | steps | parallel steps | s |', '|---|---|---|---|---|---|']
  for (const [key, list] of byTarget) {
    const [kind, name] = key.split('|') as [string, string]
    const seeds = list.map((r) => r.seed)
    const result =
      kind === 'defect'
        ? list.some((r) => r.ok)
          ? `found on seed ${list
              .filter((r) => r.ok)
              .map((r) => r.seed)
              .join(', ')} (${[...new Set(list.flatMap((r) => r.broken))].join(', ')})`
          : '**not found**'
        : list.every((r) => r.ok)
          ? `green on all ${list.length}`
          : `**${list.filter((r) => !r.ok).length} not green**: seed ${list
              .filter((r) => !r.ok)
              .map((r) => `${r.seed} (${r.broken.join(', ') || r.error || r.verdict})`)
              .join(', ')}`
    out.push(
      `| ${kind === 'faithful' ? 'faithful' : `${kind} \`${name}\``} ` +
        `| ${
          seeds.length <= 5 ? seeds.join(', ') : `${Math.min(...seeds)}-${Math.max(...seeds)} ` + `(${seeds.length})`
        } | ${result} | ${list.reduce((s, r) => s + r.steps, 0)} ` +
        `| ${list.reduce((s, r) => s + r.parallel, 0)} | ${list.reduce((s, r) => s + r.seconds, 0).toFixed(0)} |`,
    )
  }
  return out.join('\n')
}

async function main(): Promise<number> {
  let values
  try {
    values = parseArgs({
      args: process.argv.slice(2),
      options: {
        ...EXPLORE_OPTIONS,
        seeds: { type: 'string' },
        jobs: { type: 'string' },
        targets: { type: 'string' },
        variations: { type: 'string' },
        defects: { type: 'string' },
        rotate: { type: 'string' },
      },
    }).values
  } catch (e) {
    console.error(`${(e as Error).message}\n${EXPLORE_SEEDS_USAGE}`)
    return 2
  }
  if (values.help) {
    console.log(EXPLORE_SEEDS_USAGE)
    return 0
  }
  let options: ExploreOptions
  let seeds: number[]
  try {
    options = exploreOptionsFrom({ ...values, steps: values.steps ?? '60' }, { timeLimitS: 240 })
    seeds = parseSeeds(values.seeds ?? '1-20')
  } catch (e) {
    console.error(`${(e as Error).message}\n${EXPLORE_SEEDS_USAGE}`)
    return 2
  }
  const jobs = Math.max(1, Math.floor(Number(values.jobs ?? '1')) || 1)
  const kinds = new Set((values.targets ?? 'faithful,variations,defects').split(',').map((s) => s.trim()))
  const variations =
    values.variations === undefined || values.variations === 'all'
      ? (Object.keys(VARIATIONS) as VariationName[])
      : (values.variations.split(',').map((s) => s.trim()) as VariationName[])
  const defects =
    values.defects === undefined || values.defects === 'concurrency'
      ? Object.keys(CONCURRENCY_DEFECTS)
      : values.defects.split(',').map((s) => s.trim())
  const unknown = [
    ...variations.filter((v) => !Object.hasOwn(VARIATIONS, v)),
    ...defects.filter((d) => !Object.hasOwn(DEFECTS, d)),
  ]
  if (unknown.length > 0) {
    console.error(`not a variation or defect of the catalogue: ${unknown.join(', ')}\n${EXPLORE_SEEDS_USAGE}`)
    return 2
  }
  const green: { target: Target; seed: number }[] = []
  if (kinds.has('faithful'))
    for (const seed of seeds) green.push({ target: { kind: 'faithful', name: 'reference' }, seed })
  const rotate = values.rotate === undefined ? undefined : Math.max(1, Math.floor(Number(values.rotate)) || 1)
  if (kinds.has('variations')) {
    seeds.forEach((seed, i) => {
      const these =
        rotate === undefined
          ? variations
          : Array.from(
              { length: Math.min(rotate, variations.length) },
              (_, j) => variations[(i * rotate + j) % variations.length]!,
            )
      for (const v of these) green.push({ target: { kind: 'variation', name: v }, seed })
    })
  }
  console.log(
    `explore:seeds: seeds ${seeds.join(',')}, ${options.steps} steps each (sequences of at ` +
      `most ${options.maxSequence}), ${green.length} green exploration(s)${
        kinds.has('defects') ? ` and ${defects.length} defect(s) until found` : ''
      }, ${jobs} at a time`,
  )
  const rows: Row[] = []
  const keep = (r: Row) => {
    rows.push(r)
    console.log(line(r))
    return r
  }
  await mapPool(green, jobs, async (g) => keep(await exploreOnce(g.target, g.seed, options)))
  if (kinds.has('defects')) {
    // each defect seed after seed until one finds it
    await mapPool(defects, jobs, async (d) => {
      for (const seed of seeds) if (keep(await exploreOnce({ kind: 'defect', name: d }, seed, options)).ok) return
    })
  }
  console.log(`\n${seedsTable(rows)}`)
  const bad = rows.filter((r) => r.target.kind !== 'defect' && !r.ok)
  const missed = kinds.has('defects')
    ? defects.filter((d) => !rows.some((r) => r.target.kind === 'defect' && r.target.name === d && r.ok))
    : []
  if (bad.length)
    console.log(
      `not green (a false alarm, or not conclusive): ${bad.map((r) => `${r.target.name} seed ${r.seed}`).join(', ')}`,
    )
  if (missed.length) console.log(`found on no seed: ${missed.join(', ')}`)
  return bad.length > 0 || missed.length > 0 ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e)
    process.exit(2)
  },
)
