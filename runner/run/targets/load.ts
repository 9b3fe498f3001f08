import { ConfigError, loadTargetConfig } from '../../../common/config/target-config'
import { readEnv } from '../../../common/config/env'
import type { TargetConfig } from '../../../common/config/types'
import { targetProfilesFrom } from './profiles'
import { newRunId } from '../../../common/run-id'

export interface NamedTarget {
  key: string
  config: TargetConfig
}

/**
 * Every target of a multi-target run (TARGET_PROFILES), resolved like a single profile with the rest of the
 * environment. The targets share one seed; each gets the run id `<run id>-<key>`, so the data it creates and
 * its traffic are told apart. Embedded targets share one reference service, so they must ask for the same
 * reference options. Throws ConfigError listing every problem of every profile; sends nothing.
 */
export function loadTargets(env: NodeJS.ProcessEnv): NamedTarget[] | undefined {
  const list = targetProfilesFrom(env)
  if (!list) return undefined
  const runId = readEnv(env, 'CONFORMANCE_RUN_ID') ?? newRunId()
  const seed = readEnv(env, 'CONFORMANCE_SEED') ?? String(Math.floor(Math.random() * 2 ** 31))
  const problems: string[] = []
  const targets: NamedTarget[] = []
  list.paths.forEach((path, i) => {
    const key = list.keys[i]!
    try {
      const config = loadTargetConfig({
        ...env,
        TARGET_PROFILES: '',
        TARGET_PROFILE: path,
        CONFORMANCE_RUN_ID: `${runId}-${key}`,
        CONFORMANCE_SEED: seed,
      })
      targets.push({ key, config })
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e
      problems.push(...e.problems.map((p) => `[${key}] ${p}`))
    }
  })
  const embedded = targets.filter((t) => t.config.embedded)
  const first = embedded[0]
  for (const t of embedded.slice(1)) {
    if (JSON.stringify(t.config.reference) !== JSON.stringify(first!.config.reference)) {
      problems.push(
        `[${t.key}] reference: the embedded targets share one reference service, but this profile's reference ` +
          `options differ from '${first!.key}'`,
      )
    }
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return targets
}
