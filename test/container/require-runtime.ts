import type { TestContext } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { imageLabel, imagePresent, probeContainerRuntime } from '../../runner/run/container/runtime'
import { imageSourceHash, SOURCE_HASH_LABEL } from '../../runner/run/container/source-hash'

/**
 * Container tests need a runtime and the reference image built from this tree. Without them they are skipped with the
 * reason, except in CI (CI=true), where a skip would hide that the container target was never
 * tested: there the test fails instead.
 */
export async function requireContainerRuntime(ctx: TestContext, image?: string): Promise<void> {
  const probe = await probeContainerRuntime()
  let reason: string | undefined
  if (!probe.available) reason = probe.reason
  else if (image === undefined) reason = undefined
  else if (!(await imagePresent(image))) reason = `image ${image} is not built (bash scripts/build-reference-image.sh)`
  else if ((await imageLabel(image, SOURCE_HASH_LABEL)) !== imageSourceHash(PROJECT_ROOT)) {
    reason = `image ${image} was built from other sources than this tree (bash scripts/build-reference-image.sh)`
  }
  if (!reason) return
  if (process.env.CI === 'true') throw new Error(`container test cannot run in CI: ${reason}`)
  // printed as well: the default reporter shows a skip without its note
  console.warn(`container test skipped: ${reason}`)
  ctx.skip(`skipped: ${reason}`)
}
