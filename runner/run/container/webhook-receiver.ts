import { createServer } from 'node:net'
import type { TargetConfig } from '../../../common/config/types'

/** Name under which a container reaches this machine (mapped to the Docker host gateway). */
export const HOST_ALIAS = 'host.docker.internal'

/**
 * A free TCP port on this machine (the receiver needs a known port to build its public URL), drawn below the kernel's
 * ephemeral range (Linux: 32768-60999): the port is closed again until the delivery suite's receiver listens on it,
 * and a port of the ephemeral range could meanwhile be handed to any socket listening on port 0 (another program, a
 * receiver on port 0). Receivers of the run asking for this port share one listener
 * (helpers/checks/webhooks/receiver.ts).
 */
export async function freePort(random: () => number = Math.random): Promise<number> {
  let last: unknown
  for (let i = 0; i < 50; i++) {
    const port = 20000 + Math.floor(random() * 12000)
    try {
      return await tryPort(port)
    } catch (e) {
      last = e
    }
  }
  throw last instanceof Error ? last : new Error('no free port between 20000 and 31999')
}

/** Listens on `port` on every interface and closes again: resolves to the port when it was free. */
function tryPort(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(port, '0.0.0.0', () => s.close(() => resolve(port)))
  })
}

type Receiver = { listenHost?: string; listenPort?: number; publicUrl?: string }

/**
 * A service in a container cannot deliver webhooks to the suite's receiver on 127.0.0.1 (that is the
 * container itself). Unless the profile already says where the receiver is reachable
 * (extensions.webhooks.delivery.receiver.publicUrl), the receiver listens on every interface on a fixed
 * free port and is announced as http://host.docker.internal:<port>, which the container resolves to the
 * host gateway. Pure: returns a new config.
 */
export function withContainerReceiver(config: TargetConfig, port: number): TargetConfig {
  const webhooks = (config.extensions.webhooks ?? {}) as {
    delivery?: { receiver?: Receiver } & Record<string, unknown>
  } & Record<string, unknown>
  if (webhooks.delivery?.receiver?.publicUrl) return config
  const receiver: Receiver = {
    ...(webhooks.delivery?.receiver ?? {}),
    listenHost: '0.0.0.0',
    listenPort: port,
    publicUrl: `http://${HOST_ALIAS}:${port}`,
  }
  return {
    ...config,
    extensions: {
      ...config.extensions,
      webhooks: { ...webhooks, delivery: { ...(webhooks.delivery ?? {}), receiver } },
    },
  }
}
