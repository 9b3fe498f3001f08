import { PROJECT_ROOT, withEmbeddedOrigin } from '../../../common/config/target-config'
import type { TargetConfig } from '../../../common/config/types'
import { guardContainerRun, type ContainerGuard } from './guard'
import { referenceArgs } from './reference-args'
import { imageLabel, probeContainerRuntime } from './runtime'
import { imageSourceHash, SOURCE_HASH_LABEL } from './source-hash'
import { startContainerTarget } from './start-target'
import type { ContainerTarget } from './target-env'
import { freePort, HOST_ALIAS, withContainerReceiver } from './webhook-receiver'

export interface ContainerRun {
  origin: string
  image: string
  containerId: string
  /** The run's target with the container's origin and a webhook receiver the container can reach. */
  configure(config: TargetConfig): TargetConfig
  /** Stops the container (teardown). */
  release: ContainerGuard['release']
}

/** Why a container run cannot start, in one message (no stack). */
export class ContainerRunError extends Error {
  override name = 'ContainerRunError'
}

/**
 * Starts the run's target container (global setup): checks the target is compatible with the
 * profile, that a runtime answers, starts the image with the reference's options when it is the
 * reference, and guards it against interruption.
 */
export async function startContainerForRun(target: ContainerTarget, config: TargetConfig): Promise<ContainerRun> {
  if (!config.embedded) {
    throw new ContainerRunError(
      `${target.image}: the profile ${config.profileName} names services.salesBaseUrl; a container target gets its ` +
        `URL from the container (remove services.* or unset TARGET/TARGET_IMAGE)`,
    )
  }
  if (!target.reference && config.reference.defects.length > 0) {
    throw new ContainerRunError(`REFERENCE_DEFECTS: only applies to the reference image, not to ${target.image}`)
  }
  const probe = await probeContainerRuntime()
  if (!probe.available) throw new ContainerRunError(`cannot start ${target.image}: ${probe.reason}`)
  if (target.reference) {
    const built = await imageLabel(target.image, SOURCE_HASH_LABEL)
    if (built !== imageSourceHash(PROJECT_ROOT)) {
      process.stderr.write(
        `warning: ${target.image} was not built from this tree's reference (${
          built ? `sources ${built}` : 'no source label'
        }); rebuild it: bash scripts/build-reference-image.sh\n`,
      )
    }
  }
  const guard = guardContainerRun(config.runId)
  const receiverPort = await freePort()
  let running
  try {
    running = await startContainerTarget(target, {
      runId: config.runId,
      args: target.reference ? referenceArgs(config.reference) : [],
      extraHosts: [{ host: HOST_ALIAS, ipAddress: 'host-gateway' }],
    })
  } catch (e) {
    await guard.release().catch(() => undefined)
    throw new ContainerRunError(
      `${target.image} did not become ready (${target.healthPath} on ` +
        `port ${target.port}): ${(e as Error).message.split('\n')[0]}`,
    )
  }
  guard.attach(running)
  const origin = running.origin
  return {
    origin,
    image: running.image,
    containerId: running.containerId,
    configure: (c) => withContainerReceiver(withEmbeddedOrigin(c, origin), receiverPort),
    release: () => guard.release(),
  }
}
