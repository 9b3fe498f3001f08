/**
 * ledger-conformance explore (npm run explore) -- --seed N --steps K [--max-sequence M] [--time-limit-s S]
 * [--steps-per-second R]
 *
 * Stateful exploration (docs/model.md): random operation sequences generated from the model (fast-check model-based
 * testing), the model's invariants judged on every answer after each step, a failing sequence shrunk to a minimal one
 * and printed as a replay (seed, steps, each request and answer, secrets redacted). Same target as npm run
 * conformance (profile and environment; the embedded reference when no URL is set). Exit codes as
 * runner/run/verdict.ts.
 */
import { parseArgs } from 'node:util'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { reportsDir } from '../../../common/report-paths'
import { loadTargetConfig, withEmbeddedOrigin } from '../../../common/config/target-config'
import { startReference, type RunningReference } from '../../../reference/server'
import { DefectSet } from '../../../reference/defects/catalogue'
import { explore, exploreVerdict, formatExplore, type ExploreOptions } from './explore'
import { EXPLORE_OPTIONS, exploreOptionsFrom } from './options'
import { EXIT } from '../../run/verdict'
import { WRITE_OPTIONS, writeModeProblem } from '../../run/guard/write-guard'
import { guardTarget } from '../../run/guard/target-guard'
import { preflight, PreflightError } from '../../run/preflight'
import { applyTargetOptions, TARGET_OPTIONS } from '../target-options'
import { withDidYouMean } from '../did-you-mean'

/** explore's options: its own, the target's (--profile, --reports) and the guard's (--allow-writes, --read-only). */
const OPTIONS = { ...EXPLORE_OPTIONS, ...TARGET_OPTIONS, ...WRITE_OPTIONS } as const

export const EXPLORE_USAGE =
  `Usage: ledger-conformance explore [--profile FILE] [--allow-writes] [--seed N] ` +
  `[--steps K] [--max-sequence M] [--time-limit-s S] [--steps-per-second R]
  --profile FILE        the target profile (sets TARGET_PROFILE); --reports DIR the reports folder (REPORTS_DIR)
  --allow-writes        consent to create and change data on a target whose profile is not nonProduction: true
                        (explore cannot be read-only: --read-only is refused)
  --seed N              seed of the generated sequences (default: CONFORMANCE_SEED or 1)
  --steps K             steps to generate in all (default 300)
  --max-sequence M      longest sequence (default 12)
  --time-limit-s S      no new sequence after S seconds (default 240)
  --steps-per-second R  at most R steps per second (default 20; each step's polls follow the profile's polling rate)
Target: the profile and environment of a conformance run (TARGET_PROFILE, SALES_BASE_URL, ...; REFERENCE_DEFECTS for ` +
  `the embedded one).
Exit codes: 0 no invariant broken and every invariant family judged, 1 an invariant broken (replay printed), 2 usage ` +
  `or configuration error, 3 the exploration could not run, an invariant family judged nothing, or no sequence got ` +
  `past its first step.`

/** Resolves to the exploration's exit code (runner/run/verdict.ts EXIT). */
export async function exploreCommandMain(argv: string[]): Promise<number> {
  let options: ExploreOptions
  let values
  try {
    values = parseArgs({ args: argv, options: OPTIONS, strict: true }).values
    if (values.help) {
      console.log(EXPLORE_USAGE)
      return EXIT.conforms
    }
    options = exploreOptionsFrom(values, {
      timeLimitS: 240,
      ...(process.env.CONFORMANCE_SEED ? { seed: process.env.CONFORMANCE_SEED } : {}),
    })
  } catch (e) {
    console.error(`ledger-conformance explore: ${withDidYouMean((e as Error).message, OPTIONS)}\n${EXPLORE_USAGE}`)
    return EXIT.usage
  }
  const mode = { allowWrites: values['allow-writes'], readOnly: values['read-only'] }
  const modeProblem = writeModeProblem('explore', mode)
  if (modeProblem) {
    console.error(`ledger-conformance explore: ${modeProblem}`)
    return EXIT.usage
  }
  const env = applyTargetOptions(values, { ...process.env })
  let config
  try {
    config = loadTargetConfig(env)
    if (config.embedded) new DefectSet(config.reference.defects)
  } catch (e) {
    console.error((e as Error).message)
    return EXIT.usage
  }
  // every sequence creates and changes data: the one production guard (runner/run/guard/write-guard.ts), before any
  // request
  const guard = guardTarget({ command: 'explore', argv, config, mode, writes: true, env })
  if (guard.go === 'refused') {
    console.error(`ledger-conformance explore: ${guard.message}`)
    return EXIT.usage
  }
  let reference: RunningReference | undefined
  try {
    if (config.embedded) {
      reference = await startReference({ ...config.reference, defects: config.reference.defects })
      config = withEmbeddedOrigin(config, reference.url)
    }
    // the preflight of a run (reachable, every configured user logs in, the tenant header): a refused login is a
    // configuration error (2), a §5 violation at login 1, an unreachable target 3, as for run (README's one table)
    try {
      config = await preflight(config)
    } catch (e) {
      if (!(e instanceof PreflightError)) throw e
      console.error(`ledger-conformance explore: ${e.message}`)
      return e.kind === 'configuration' ? EXIT.usage : e.kind === 'violation' ? EXIT.doesNotConform : EXIT.inconclusive
    }
    const head = `explore: target ${config.services.salesBaseUrl}${
      reference
        ? ` (embedded ` +
          `reference${config.reference.defects.length ? `, defects ${config.reference.defects.join(',')}` : ''})`
        : ''
    }, seed ${options.seed}, ${options.steps} steps`
    console.log(head)
    const result = await explore(config, options)
    const text = formatExplore(result, options)
    console.log(text)
    // the reports folder keeps what was printed (the replay of a failure included): <reports>/explore.txt, replaced by
    // the next exploration
    const dir = reportsDir(env)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'explore.txt'), `${head}\n${text}\n`)
    return exploreVerdict(result).exit
  } catch (e) {
    console.error(`explore could not run: ${(e as Error).message}`)
    return EXIT.inconclusive
  } finally {
    await reference?.close()
  }
}
