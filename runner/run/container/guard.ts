import { spawnSync } from 'node:child_process'
import { RUN_LABEL, type RunningContainerTarget } from './start-target'

export interface ContainerGuard {
  /** The container once it has started (the guard is installed before, to cover the startup). */
  attach(running: RunningContainerTarget): void
  /** Stops the container (if any) and removes the handlers. */
  release(): Promise<void>
}

/** Removes every container of the run by its label, synchronously, with the docker CLI (best effort). */
export function removeRunContainers(runId: string): void {
  const ids = spawnSync('docker', ['ps', '-aq', '--filter', `label=${RUN_LABEL}=${runId}`], {
    encoding: 'utf8',
    timeout: 10_000,
  })
  const list = (ids.stdout ?? '')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
  if (list.length > 0) spawnSync('docker', ['rm', '-f', ...list], { stdio: 'ignore', timeout: 15_000 })
}

/**
 * Makes sure the run's container goes away when the run is interrupted (SIGINT, SIGTERM), even
 * during its startup, or when the process exits without the teardown: on a signal it stops the
 * container; on exit it removes the run's containers by label with the docker CLI, synchronously.
 * Install it before starting the container.
 */
export function guardContainerRun(
  runId: string,
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): ContainerGuard {
  let running: RunningContainerTarget | undefined
  let released = false
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: removing the target container of run ${runId}`)
    if (running)
      void running.stop().then(
        () => (released = true),
        () => undefined,
      )
  }
  const onExit = () => {
    if (!released) removeRunContainers(runId)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.on('exit', onExit)
  const detach = () => {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
    process.removeListener('exit', onExit)
  }
  return {
    attach(r) {
      running = r
    },
    async release() {
      try {
        if (running) await running.stop()
        else removeRunContainers(runId)
        released = true
      } finally {
        detach()
      }
    },
  }
}
