import type { TestProject } from 'vitest/node'
import { readProfile } from '../../../common/config/target-config'
import type { TargetConfig } from '../../../common/config/types'
import { cliFileFilters } from './cli-filters'
import { productionGuard, type GuardDecision } from './production-guard'
import { loadSuiteClasses } from './suite-classes'

/** The run would create or change data on a target not declared non-production. */
export class GuardRefusal extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'GuardRefusal'
  }
}

/**
 * The production guard of a conformance run (called by the global setup before anything is started or sent):
 * resolves the suite files vitest will run from its command line, and refuses writing suites against a
 * target the profile does not mark nonProduction, unless ALLOW_WRITES=1.
 */
export async function guardRun(
  project: Pick<TestProject, 'globTestFiles'>,
  config: TargetConfig,
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
): Promise<GuardDecision> {
  const filters = cliFileFilters(argv)
  let files = (await project.globTestFiles(filters)).testFiles
  // A filter that selects nothing leaves vitest with nothing to run; judge every suite rather than none.
  if (files.length === 0) files = (await project.globTestFiles()).testFiles
  const decision = productionGuard({
    config,
    files,
    classes: loadSuiteClasses(),
    env,
    profileServices: (config.asWritten ?? readProfile(config.profilePath)).services ?? {},
  })
  if (!decision.allowed) throw new GuardRefusal(decision.message)
  return decision
}
