import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadTargetConfig } from '../../../common/config/target-config'
import { preflight, PreflightError } from '../../../runner/run/preflight'
import { startReference, type RunningReference } from '../../../reference/server'
import { profileDir } from '../../support/profile-files'
import { startTestServer, type TestServer } from '../../support/http-server'

let ref: RunningReference
let html: TestServer
let redirect: TestServer

const PRIMARY = { username: 'broker@acme.test', password: 'demo-pass-4821' }

/** A profile against the running reference with the given extra users; its config as the run resolves it. */
function config(users: Record<string, unknown>, env: Record<string, string> = {}, services?: Record<string, string>) {
  const dir = profileDir({
    'p.json': {
      name: 'p',
      nonProduction: true,
      tenant: 'acme',
      credentials: PRIMARY,
      users,
      services: services ?? { salesBaseUrl: ref.url, authUrl: `${ref.url}/api/v1/identifier`, webhookBaseUrl: ref.url },
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
  html = await startTestServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<html><body>Welcome to nginx</body></html>')
  })
  redirect = await startTestServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200).end('ok')
    res.writeHead(302, { location: `https://sso.example.test${req.url}` })
    res.end()
  })
})
afterAll(async () => {
  await ref.close()
  await html.close()
  await redirect.close()
})

describe('preflight: every configured user logs in', () => {
  it(
    'a configured user that cannot log in is a configuration error naming the user and its profile ' + 'field',
    async () => {
      const e = await stopOf(
        preflight(
          config(
            { restricted: { username: 'viewer@acme.test', passwordEnv: 'RESTRICTED_PASSWORD' } },
            { RESTRICTED_PASSWORD: 'wrong-password-1' },
          ),
        ),
      )
      expect(e.kind).toBe('configuration')
      expect(e.message).toContain("user 'viewer@acme.test'")
      expect(e.message).toContain('users.restricted (password from RESTRICTED_PASSWORD)')
      expect(e.message).toContain('optional: true')
      expect(e.message).not.toContain('wrong-password-1')
    },
  )

  it('an optional user that cannot log in leaves the run, its checks not applicable with the reason', async () => {
    const c = await preflight(
      config({
        restricted: { username: 'viewer@acme.test', password: 'wrong-password-1', optional: true },
        otherTenant: { tenant: 'globex', username: 'broker@globex.test', password: 'demo-pass-4821' },
      }),
    )
    expect(c.users.restricted).toBeUndefined()
    expect(c.users.otherTenant?.username).toBe('broker@globex.test')
    expect(c.unavailableUsers?.restricted).toMatch(
      /^users\.restricted is optional and could not log in: .*answered 401/,
    )
  })

  it('an optional user whose password variable is not set is left out before any request, with the reason', () => {
    const c = config({
      restricted: { username: 'viewer@acme.test', passwordEnv: 'RESTRICTED_PASSWORD', optional: true },
    })
    expect(c.users.restricted).toBeUndefined()
    expect(c.unavailableUsers).toEqual({
      restricted: 'users.restricted is optional and its password variable RESTRICTED_PASSWORD is not set',
    })
  })

  it("the staging example works without its optional users' passwords", () => {
    const c = loadTargetConfig({
      TARGET_PROFILE: join(process.cwd(), 'fixtures/targets/staging.example.jsonc'),
      AUTH_PASSWORD: 'x-secret-1',
    })
    expect(c.unavailableUsers?.restricted).toContain('RESTRICTED_PASSWORD')
  })

  it('a primary user refused at login is a configuration error naming credentials', async () => {
    const dir = profileDir({
      'p.json': {
        name: 'p',
        tenant: 'acme',
        credentials: { username: 'broker@acme.test', password: 'nope-nope-1' },
        services: { salesBaseUrl: ref.url },
      },
    })
    const e = await stopOf(preflight(loadTargetConfig({ TARGET_PROFILE: join(dir, 'p.json') })))
    expect(e.kind).toBe('configuration')
    expect(e.message).toMatch(/credentials \(AUTH_USERNAME \/ AUTH_PASSWORD/)
  })
})

describe('preflight hints that match the cause', () => {
  it('a 404 on login points at AUTH_URL and auth.loginPath', async () => {
    const e = await stopOf(
      preflight(
        config({}, {}, { salesBaseUrl: ref.url, authUrl: `${ref.url}/api/v1/nowhere`, webhookBaseUrl: ref.url }),
      ),
    )
    expect(e.kind).toBe('configuration')
    expect(e.message).toMatch(
      /answered 404\. Check AUTH_URL \(profile services\.authUrl, now .*\/api\/v1\/nowhere\) and auth\.loginPath/,
    )
  })

  it('an HTTP server that is not this API is said to be one', async () => {
    const e = await stopOf(
      preflight(config({}, {}, { salesBaseUrl: html.url, authUrl: html.url, webhookBaseUrl: html.url })),
    )
    expect(e.message).toMatch(/HTML page: .* is an HTTP server, but not this identity API/)
  })

  it('a redirect names the Location', async () => {
    const e = await stopOf(
      preflight(
        config({}, {}, { salesBaseUrl: redirect.url, authUrl: `${redirect.url}/id`, webhookBaseUrl: redirect.url }),
      ),
    )
    expect(e.message).toContain('redirects to https://sso.example.test/id/login/acme')
  })
})
