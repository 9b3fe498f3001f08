import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadTargetConfig } from '../../../common/config/target-config'
import { preflight, PreflightError, productSource } from '../../../runner/run/preflight'
import { startReference, type RunningReference } from '../../../reference/server'
import { profileDir } from '../../support/profile-files'

let ref: RunningReference

const PRIMARY = { username: 'broker@acme.test', password: 'demo-pass-4821' }

function config(fields: Record<string, unknown>, env: Record<string, string> = {}) {
  const dir = profileDir({
    'p.json': {
      name: 'p',
      nonProduction: true,
      tenant: 'acme',
      credentials: PRIMARY,
      services: { salesBaseUrl: ref.url, authUrl: `${ref.url}/api/v1/identifier`, webhookBaseUrl: ref.url },
      ...fields,
    },
  })
  return loadTargetConfig({ TARGET_PROFILE: join(dir, 'p.json'), ...env })
}

async function stopOf(p: Promise<unknown>): Promise<PreflightError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(PreflightError)
    return e as PreflightError
  }
  throw new Error('expected the preflight to stop the run')
}

beforeAll(async () => {
  ref = await startReference({ port: 0 })
})
afterAll(async () => {
  await ref.close()
})

describe('preflight: the schema of every product the profile names (issue #37)', () => {
  it(
    'a product the target does not have is a configuration error (exit 2) naming the profile field, said ' + 'once',
    async () => {
      const e = await stopOf(preflight(config({ product: 'car' })))
      expect(e.kind).toBe('configuration')
      expect(e.message).toMatch(
        /^Configuration: the target has no product 'car' \(profile field 'product' of p\.json; or PRODUCT\): GET http:\/\/127\.0\.0\.1:\d+\/\S+\/schemes\/policy\/\S*car answered 404\. Name a product this tenant sells/,
      )
      expect(e.message.match(/404/g)).toHaveLength(1)
    },
  )

  it('names each missing product of products[], and not those the target has', async () => {
    const e = await stopOf(preflight(config({ product: 'home', products: ['home', 'boat', 'travel', 'car'] })))
    expect(e.kind).toBe('configuration')
    expect(e.message).toContain("the target has no products 'boat' (profile field 'products[1]'")
    expect(e.message).toContain("'car' (profile field 'products[3]'")
    expect(e.message).not.toMatch(/'home'|'travel'/)
  })

  it('names PRODUCT when the variable set it', () => {
    expect(
      productSource({ product: 'car', products: ['car'], profilePath: '/x/p.json' }, 'car', { PRODUCT: 'car' }),
    ).toBe("'car' (variable PRODUCT=car)")
  })

  it('the products the target has pass', async () => {
    const c = await preflight(config({ product: 'home', products: ['home', 'travel'] }))
    expect(c.products).toEqual(['home', 'travel'])
  })
})
