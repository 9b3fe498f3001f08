import { getContainerRuntimeClient, ImageName } from 'testcontainers'

export type RuntimeProbe = { available: true; info: string } | { available: false; reason: string }

/** Whether a container runtime (Docker or compatible) answers, and why not when it does not. Never throws. */
export async function probeContainerRuntime(): Promise<RuntimeProbe> {
  try {
    const client = await getContainerRuntimeClient()
    const rt = client.info.containerRuntime
    return { available: true, info: `${rt.operatingSystem} at ${rt.host}, API ${rt.serverVersion}` }
  } catch (e) {
    return { available: false, reason: `no container runtime answers (${(e as Error).message.split('\n')[0]})` }
  }
}

/** Whether an image is present locally (images may not be pullable here). Never throws. */
export async function imagePresent(image: string): Promise<boolean> {
  try {
    const client = await getContainerRuntimeClient()
    return await client.image.exists(ImageName.fromString(image))
  } catch {
    return false
  }
}

/** A label of a local image (undefined when the image or the label is absent). Never throws. */
export async function imageLabel(image: string, label: string): Promise<string | undefined> {
  try {
    const client = await getContainerRuntimeClient()
    const info = await client.image.inspect(ImageName.fromString(image))
    return info.Config?.Labels?.[label] ?? undefined
  } catch {
    return undefined
  }
}
