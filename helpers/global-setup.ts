import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { DefectSet } from '../reference/defects/catalogue'
import { startReference, type RunningReference } from '../reference/server'
import { ConfigError, loadTargetConfig, withEmbeddedOrigin } from './config'
import { startContainerForRun, type ContainerRun } from './container/container-run'
import { containerTargetFromEnv, ContainerTargetError } from './container/target-env'
import { guardRun } from './guard/run-guard'
import { preflight, PreflightError } from './preflight'
import { chaosFromEnv } from '../reference/chaos/env'
import { reportsDir, trafficDir } from './reporting/paths'
import { runInfo } from './reporting/run-info'

/** Stops the run with one message, without a stack trace of the suite's internals. */
function fatal(message: string): never {
  const e = new Error(message)
  e.stack = message
  throw e
}

/**
 * Resolves the target (profile + environment), starts the embedded reference service when
 * no SALES_BASE_URL is set, runs the preflight, and provides the target to every suite.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let config
  try {
    config = loadTargetConfig(process.env)
  } catch (e) {
    if (e instanceof ConfigError) fatal(e.message)
    throw e
  }
  let chaos
  try {
    await guardRun(project, config, process.env, process.argv)
    chaos = chaosFromEnv(process.env, config.embedded)
  } catch (e) {
    fatal((e as Error).message)
  }
  let reference: RunningReference | undefined
  let container: ContainerRun | undefined
  let containerTarget
  try {
    containerTarget = containerTargetFromEnv(process.env)
  } catch (e) {
    if (e instanceof ContainerTargetError) fatal(e.message)
    throw e
  }
  if (containerTarget) {
    // TARGET=container / TARGET_IMAGE: the service under test runs as a container for this run.
    if (containerTarget.reference) {
      try {
        new DefectSet(config.reference.defects)
      } catch (e) {
        fatal(`REFERENCE_DEFECTS: ${(e as Error).message}`)
      }
    }
    try {
      container = await startContainerForRun(containerTarget, config)
    } catch (e) {
      fatal(`Target container: ${(e as Error).message}`)
    }
    config = container.configure(config)
  } else if (config.embedded) {
    try {
      new DefectSet(config.reference.defects)
    } catch (e) {
      fatal(`REFERENCE_DEFECTS: ${(e as Error).message}`)
    }
    try {
      reference = await startReference({ ...config.reference, defects: config.reference.defects, ...(chaos ? { chaos } : {}) })
    } catch (e) {
      fatal(`Embedded reference service failed to start: ${(e as Error).message}`)
    }
    config = withEmbeddedOrigin(config, reference.url)
  }
  try {
    await preflight(config)
  } catch (e) {
    await reference?.close()
    await container?.release()
    if (e instanceof PreflightError) fatal(e.message)
    throw e
  }
  rmSync(trafficDir(), { recursive: true, force: true })
  mkdirSync(reportsDir(), { recursive: true })
  const info = { ...runInfo(config), ...(container ? { embedded: false, container: { image: container.image, id: container.containerId.slice(0, 12) } } : {}) }
  writeFileSync(join(reportsDir(), 'run.json'), `${JSON.stringify(info, null, 2)}\n`)
  project.provide('target', config)
  return async () => {
    await reference?.close()
    await container?.release()
  }
}
