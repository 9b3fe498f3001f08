/**
 * npm run explore:defects -- [--seed 1] [--steps 300] [--time-limit-s 120] [--defects a,b] [--max-sequence 12]
 *
 * Runs npm run explore once per defect of scripts/explore/model-cases.ts against the embedded reference with that
 * defect enabled
 * (one at a time), and prints a table: found or not, the replay's steps, the invariants broken, whether the replay
 * broke an invariant again run alone on a fresh reference with the same defect, the steps and seconds used. Exits 1
 * when a defect of issue 14's areas (webhooks, sales, policies) is not found, or only with a replay longer than 12
 * steps or one that does not reproduce alone; 2 on a usage error. It asserts nothing else (docs/model.md
 * "Exploration").
 */
import { parseArgs } from 'node:util'
import { EXPLORE_OPTIONS, exploreOptionsFrom } from '../runner/commands/explore/options'
import {
  exploreDefect,
  exploreDefectList,
  formatDefectTable,
  MAX_REPLAY,
  meetsBar,
  type DefectExploration,
} from './explore/defects'

export const EXPLORE_DEFECTS_USAGE =
  `Usage: npm run explore:defects -- [--seed N] [--steps K] [--time-limit-s S] ` +
  `[--max-sequence M] [--steps-per-second R] [--defects a,b]`

async function main(): Promise<number> {
  let values
  try {
    values = parseArgs({
      args: process.argv.slice(2),
      options: { ...EXPLORE_OPTIONS, defects: { type: 'string', multiple: true } },
    }).values
  } catch (e) {
    console.error(`${(e as Error).message}\n${EXPLORE_DEFECTS_USAGE}`)
    return 2
  }
  if (values.help) {
    console.log(EXPLORE_DEFECTS_USAGE)
    return 0
  }
  let options
  try {
    options = exploreOptionsFrom(values, { timeLimitS: 120 })
  } catch (e) {
    console.error(`${(e as Error).message}\n${EXPLORE_DEFECTS_USAGE}`)
    return 2
  }
  const wanted = values.defects
    ?.flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean)
  const all = exploreDefectList()
  const unknown = (wanted ?? []).filter((w) => !all.some((d) => d.defect === w))
  if (unknown.length) {
    console.error(
      `--defects: not a defect of scripts/explore/model-cases.ts: ${unknown.join(', ')}\n${EXPLORE_DEFECTS_USAGE}`,
    )
    return 2
  }
  const list = wanted ? all.filter((d) => wanted.includes(d.defect)) : all
  console.log(
    `explore:defects: ${list.length} defects, seed ${options.seed}, ${options.steps} steps, at ` +
      `most ${options.timeLimitMs / 1000} s of new sequences each`,
  )
  const rows: DefectExploration[] = []
  for (const entry of list) {
    const d = await exploreDefect(entry, options)
    rows.push(d)
    console.log(
      `${d.defect.padEnd(44)} ${
        d.found
          ? `found, replay ${d.replaySteps} ` +
            `steps, ${d.broken.join(', ')}, ${
              d.reproducedAlone ? 'reproduced alone on a fresh reference' : 'NOT reproduced alone on a fresh reference'
            }`
          : d.error
            ? `error: ${d.error}`
            : 'NOT FOUND'
      } (${d.stepsRun} ` + `steps, ${d.seconds.toFixed(1)} s)`,
    )
  }
  console.log(`\n${formatDefectTable(rows)}`)
  const missed = rows.filter((d) => !meetsBar(d))
  if (missed.length)
    console.log(
      `not found with a replay of at most ${MAX_REPLAY} steps reproducing alone on a fresh ` +
        `reference: ${missed.map((d) => d.defect).join(', ')}`,
    )
  return missed.length ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e)
    process.exit(2)
  },
)
