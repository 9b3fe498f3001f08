/**
 * ledger-conformance explore (npm run explore) -- --seed N --steps K [--max-sequence M] [--time-limit-s S] [--steps-per-second R]
 *
 * Stateful exploration (docs/model.md): random operation sequences generated from the model (fast-check model-based
 * testing), the model's invariants judged on every answer after each step, a failing sequence shrunk to a minimal one
 * and printed as a replay (seed, steps, each request and answer, secrets redacted). Same target as npm run
 * conformance (profile and environment; the embedded reference when no URL is set). Exit codes as runner/verdict.ts.
 */
import { parseArgs } from 'node:util'
import { loadTargetConfig, withEmbeddedOrigin } from '../../helpers/client/config/target-config'
import { startReference, type RunningReference } from '../../reference/server'
import { DefectSet } from '../../reference/defects/catalogue'
import { explore, exploreVerdict, formatExplore, type ExploreOptions } from '../explore/explore'
import { EXPLORE_OPTIONS, exploreOptionsFrom } from './options'
import { EXIT } from '../verdict'

export const EXPLORE_USAGE = `Usage: ledger-conformance explore [--seed N] [--steps K] [--max-sequence M] [--time-limit-s S] [--steps-per-second R]
  --seed N              seed of the generated sequences (default: CONFORMANCE_SEED or 1)
  --steps K             steps to generate in all (default 300)
  --max-sequence M      longest sequence (default 12)
  --time-limit-s S      no new sequence after S seconds (default 240)
  --steps-per-second R  at most R steps per second (default 20; each step's polls follow the profile's polling rate)
Target: the profile and environment of a conformance run (TARGET_PROFILE, SALES_BASE_URL, ...; REFERENCE_DEFECTS for the embedded one).
Exit codes: 0 no invariant broken and every invariant family judged, 1 an invariant broken (replay printed), 2 usage or configuration error, 3 the exploration could not run, an invariant family judged nothing, or no sequence got past its first step.`

/** Resolves to the exploration's exit code (runner/verdict.ts EXIT). */
export async function exploreCommandMain(argv: string[]): Promise<number> {
  let options: ExploreOptions
  try {
    const { values } = parseArgs({ args: argv, options: EXPLORE_OPTIONS })
    if (values.help) {
      console.log(EXPLORE_USAGE)
      return EXIT.conforms
    }
    options = exploreOptionsFrom(values, { timeLimitS: 240, ...(process.env.CONFORMANCE_SEED ? { seed: process.env.CONFORMANCE_SEED } : {}) })
  } catch (e) {
    console.error(`${(e as Error).message}\n${EXPLORE_USAGE}`)
    return EXIT.usage
  }
  let config
  try {
    config = loadTargetConfig(process.env)
    if (config.embedded) new DefectSet(config.reference.defects)
  } catch (e) {
    console.error((e as Error).message)
    return EXIT.usage
  }
  let reference: RunningReference | undefined
  try {
    if (config.embedded) {
      reference = await startReference({ ...config.reference, defects: config.reference.defects })
      config = withEmbeddedOrigin(config, reference.url)
    }
    console.log(`explore: target ${config.services.salesBaseUrl}${reference ? ` (embedded reference${config.reference.defects.length ? `, defects ${config.reference.defects.join(',')}` : ''})` : ''}, seed ${options.seed}, ${options.steps} steps`)
    const result = await explore(config, options)
    console.log(formatExplore(result, options))
    return exploreVerdict(result).exit
  } catch (e) {
    console.error(`explore could not run: ${(e as Error).message}`)
    return EXIT.inconclusive
  } finally {
    await reference?.close()
  }
}
