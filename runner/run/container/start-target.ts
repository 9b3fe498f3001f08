import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers'
import type { ContainerTarget } from './target-env'

/** Label put on every container the suite starts, so a CI step can remove leftovers by run id. */
export const RUN_LABEL = 'ledger-conformance.run-id'

export interface RunningContainerTarget {
  /** Origin on the host, e.g. http://localhost:32771. */
  origin: string
  containerId: string
  image: string
  /** Stops and removes the container; safe to call more than once. */
  stop(): Promise<void>
}

export interface StartOptions {
  runId: string
  /** Arguments appended to the image's command (the reference's --defect, --lock-ms ...). */
  args?: string[]
  /** Extra /etc/hosts entries of the container (e.g. host.docker.internal -> host-gateway). */
  extraHosts?: { host: string; ipAddress: string }[]
}

/**
 * Starts the service under test as a container, waits until its health route answers 200 on the
 * mapped port, and returns its origin. The image must be present locally or pullable.
 */
export async function startContainerTarget(target: ContainerTarget, o: StartOptions): Promise<RunningContainerTarget> {
  let container = new GenericContainer(target.image)
    .withExposedPorts(target.port)
    .withLabels({ [RUN_LABEL]: o.runId })
    .withWaitStrategy(Wait.forHttp(target.healthPath, target.port).forStatusCode(200))
    .withStartupTimeout(target.startupTimeoutMs)
  if (o.args && o.args.length > 0) container = container.withCommand(o.args)
  if (o.extraHosts && o.extraHosts.length > 0) container = container.withExtraHosts(o.extraHosts)
  const started: StartedTestContainer = await container.start()
  let stopping: Promise<void> | undefined
  return {
    origin: `http://${started.getHost()}:${started.getMappedPort(target.port)}`,
    containerId: started.getId(),
    image: target.image,
    stop() {
      stopping ??= started.stop({ remove: true, timeout: 5_000 }).then(() => undefined)
      return stopping
    },
  }
}
