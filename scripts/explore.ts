/**
 * npm run explore -- --seed N --steps K [--max-sequence M] [--time-limit-s S] [--steps-per-second R]
 *
 * Stateful exploration (docs/model.md): random operation sequences generated from the model (fast-check model-based
 * testing), the model's invariants judged on every answer after each step, a failing sequence shrunk to a minimal one
 * and printed as a replay (seed, steps, each request and answer, secrets redacted). Same target as npm run
 * conformance (profile and environment; the embedded reference when no URL is set). Exit codes as runner/verdict.ts.
 */
import { parseArgs } from 'node:util'
import { loadTargetConfig, withEmbeddedOrigin } from '../helpers/config'
import { startReference, type RunningReference } from '../reference/server'
import { DefectSet } from '../reference/defects/catalogue'
import { explore, formatExplore, type ExploreOptions } from '../runner/explore/explore'
import { EXIT } from '../runner/verdict'

export const EXPLORE_USAGE = `Usage: npm run explore -- [--seed N] [--steps K] [--max-sequence M] [--time-limit-s S] [--steps-per-second R]
  --seed N              seed of the generated sequences (default: CONFORMANCE_SEED or 1)
  --steps K             steps to generate in all (default 300)
  --max-sequence M      longest sequence (default 12)
  --time-limit-s S      no new sequence after S seconds (default 240)
  --steps-per-second R  at most R steps per second (default 20; each step's polls follow the profile's polling rate)
Target: the profile and environment of npm run conformance (TARGET_PROFILE, SALES_BASE_URL, ...; REFERENCE_DEFECTS for the embedded one).
Exit codes: 0 no invariant broken, 1 an invariant broken (replay printed), 2 usage or configuration error, 3 the exploration could not run.`

function positive(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined) return fallback
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name}: expected a positive number, got '${v}'`)
  return n
}

async function main(): Promise<number> {
  let options: ExploreOptions
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options: { seed: { type: 'string' }, steps: { type: 'string' }, 'max-sequence': { type: 'string' }, 'time-limit-s': { type: 'string' }, 'steps-per-second': { type: 'string' }, help: { type: 'boolean', short: 'h' } } })
    if (values.help) {
      console.log(EXPLORE_USAGE)
      return EXIT.conforms
    }
    options = {
      seed: Math.floor(positive('seed', values.seed ?? process.env.CONFORMANCE_SEED, 1)),
      steps: Math.floor(positive('steps', values.steps, 300)),
      maxSequence: Math.floor(positive('max-sequence', values['max-sequence'], 12)),
      timeLimitMs: positive('time-limit-s', values['time-limit-s'], 240) * 1000,
      stepsPerSecond: positive('steps-per-second', values['steps-per-second'], 20),
    }
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
    return result.ok ? EXIT.conforms : result.error ? EXIT.inconclusive : EXIT.doesNotConform
  } catch (e) {
    console.error(`explore could not run: ${(e as Error).message}`)
    return EXIT.inconclusive
  } finally {
    await reference?.close()
  }
}

main().then((code) => process.exit(code))
