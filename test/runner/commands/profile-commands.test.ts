import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseJsonc } from '../../../common/config/jsonc'
import { initCommand } from '../../../runner/commands/init/index'
import { validateCommand } from '../../../runner/commands/validate/index'
import { tempDir } from '../../support/temp-dir'

let dir: string
let out: string
let err: string
beforeEach(() => {
  dir = tempDir('cli')
  vi.spyOn(process, 'cwd').mockReturnValue(dir)
  out = ''
  err = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true))
  vi.stubEnv('AUTH_PASSWORD', undefined as unknown as string)
  vi.stubEnv('SALES_BASE_URL', undefined as unknown as string)
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

const FLAGS = ['--sales-url', 'https://sales.example.com/', '--tenant', 'acme', '--username', 'qa@acme.example.com']

describe('ledger-conformance init', () => {
  it('writes a commented JSONC profile from flags, anywhere, that validates', async () => {
    expect(
      await initCommand.run(['ci/staging.jsonc', ...FLAGS, '--non-production', '--password-env', 'STAGING_PASSWORD']),
    ).toBe(0)
    const text = readFileSync(join(dir, 'ci/staging.jsonc'), 'utf8')
    expect(text).toMatch(/^\/\/ /m)
    const p = parseJsonc(text) as Record<string, unknown>
    expect(p).toMatchObject({
      name: 'acme',
      tenant: 'acme',
      nonProduction: true,
      services: { salesBaseUrl: 'https://sales.example.com' },
      credentials: { username: 'qa@acme.example.com', passwordEnv: 'STAGING_PASSWORD' },
    })
    expect(text).not.toMatch(/"password"\s*:/)
    expect(out).toContain('wrote ci/staging.jsonc')
    expect(await validateCommand.run(['ci/staging.jsonc'])).toBe(0)
  })

  it(
    "writes what enables the areas most often left untested: a restricted user, a second tenant's user, the " +
      'delivery receiver',
    async () => {
      expect(
        await initCommand.run([
          'e.jsonc',
          ...FLAGS,
          '--restricted-user',
          'r@acme',
          '--other-tenant',
          'globex',
          '--other-tenant-user',
          'g@globex',
          '--receiver-url',
          'https://tunnel.example.com/hook',
        ]),
      ).toBe(0)
      const p = parseJsonc(readFileSync(join(dir, 'e.jsonc'), 'utf8')) as Record<string, unknown>
      expect(p).toMatchObject({
        users: {
          restricted: { username: 'r@acme', passwordEnv: 'RESTRICTED_PASSWORD' },
          otherTenant: { tenant: 'globex', username: 'g@globex', passwordEnv: 'OTHER_TENANT_PASSWORD' },
        },
        extensions: { webhooks: { delivery: { receiver: { publicUrl: 'https://tunnel.example.com/hook' } } } },
      })
      expect(await validateCommand.run(['e.jsonc'])).toBe(0)
      expect(await initCommand.run(['f.jsonc', ...FLAGS, '--other-tenant', 'globex'])).toBe(2)
    },
  )

  it('names a missing required flag and writes nothing (exit 2); never overwrites without --force', async () => {
    expect(await initCommand.run(['--tenant', 'acme'])).toBe(2)
    expect(err).toContain('required: --sales-url, --username')
    expect(await initCommand.run(FLAGS)).toBe(0)
    expect(await initCommand.run(FLAGS)).toBe(2)
    expect(err).toContain('exists; --force overwrites it')
    expect(await initCommand.run([...FLAGS, '--force', '--product', 'travel'])).toBe(0)
    expect(
      (parseJsonc(readFileSync(join(dir, 'ledger-conformance.jsonc'), 'utf8')) as { product: string }).product,
    ).toBe('travel')
  })

  it('refuses a bad URL or tenant tag, naming the flag or field', async () => {
    expect(await initCommand.run(['--sales-url', 'sales.example.com', '--tenant', 'acme', '--username', 'u'])).toBe(2)
    expect(err).toContain("--sales-url: must be an absolute http(s) URL, got 'sales.example.com'")
    expect(await initCommand.run(['--sales-url', 'https://x.test', '--tenant', 'a b', '--username', 'u'])).toBe(2)
    expect(err).toMatch(/\/tenant: must match pattern/)
    expect(existsSync(join(dir, 'ledger-conformance.jsonc'))).toBe(false)
  })
})

describe('ledger-conformance init --openapi and validate of the documents', () => {
  const DOC = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/a': {
        get: {
          parameters: [{ name: 'p', in: 'query', schema: { type: 'bool' } }],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  }

  it(
    'writes openapi and contract with comments; validate loads the document and prints its warnings (exit ' + '0)',
    async () => {
      writeFileSync(join(dir, 'doc.json'), JSON.stringify(DOC))
      expect(
        await initCommand.run([
          'ci/p.jsonc',
          ...FLAGS,
          '--openapi',
          'doc.json',
          '--openapi',
          'https://api.example.test/openapi.yaml',
        ]),
      ).toBe(0)
      const text = readFileSync(join(dir, 'ci/p.jsonc'), 'utf8')
      expect(text).toMatch(/\/\/ fail: a contract finding fails the run/)
      expect(parseJsonc(text)).toMatchObject({
        openapi: ['../doc.json', 'https://api.example.test/openapi.yaml'],
        contract: 'fail',
      })
      expect(await initCommand.run(['ci/q.jsonc', ...FLAGS, '--openapi', 'doc.json', '--contract', 'warn'])).toBe(0)
      expect(parseJsonc(readFileSync(join(dir, 'ci/q.jsonc'), 'utf8'))).toMatchObject({ contract: 'warn' })
      expect(await initCommand.run(['ci/r.jsonc', ...FLAGS, '--contract', 'maybe'])).toBe(2)
      expect(err).toContain("--contract: must be fail or warn, got 'maybe'")
      out = ''
      expect(await validateCommand.run(['ci/q.jsonc'])).toBe(0)
      expect(out).toMatch(
        /WARNING \S*doc\.json#\/paths\/~1a\/get\/parameters\/0\/schema\/type: type "bool" is not a JSON Schema type/,
      )
      expect(out).toContain('openapi: 1 document(s) loaded, 1 warning(s)')
    },
  )

  it('exits 2 naming a document that is not OpenAPI', async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'not a document' }))
    expect(await initCommand.run(['p.jsonc', ...FLAGS, '--openapi', 'package.json', '--contract', 'warn'])).toBe(0)
    expect(await validateCommand.run(['p.jsonc'])).toBe(2)
    expect(err).toMatch(/package\.json: is not an OpenAPI 3\.0 or 3\.1 document/)
  })
})

describe('ledger-conformance validate', () => {
  it('names the field of an invalid profile and exits 2; a missing file too', async () => {
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ name: 'x', tenant: 'acme', credentials: { username: 'u' }, polling: { maxDelayMs: 'fast' } }),
    )
    expect(await validateCommand.run(['bad.json', 'none.jsonc'])).toBe(2)
    expect(err).toMatch(/INVALID bad\.json\n\s+- .*\/polling\/maxDelayMs: must be integer/)
    expect(err).toMatch(/INVALID none\.jsonc\n\s+- .*file not found/)
  })

  it('notes an unset password variable, and requires it with --env', async () => {
    expect(await initCommand.run(FLAGS)).toBe(0)
    expect(await validateCommand.run(['ledger-conformance.jsonc'])).toBe(0)
    expect(out).toContain('note: credentials.passwordEnv: environment variable AUTH_PASSWORD is not set')
    expect(await validateCommand.run(['ledger-conformance.jsonc', '--env'])).toBe(2)
    vi.stubEnv('AUTH_PASSWORD', 'not-shown-8812')
    expect(await validateCommand.run(['ledger-conformance.jsonc', '--env'])).toBe(0)
    expect(out + err).not.toContain('not-shown-8812')
  })

  it('checks the overriding environment too, and needs a file (exit 2)', async () => {
    vi.stubEnv('SALES_BASE_URL', 'not a url')
    expect(await validateCommand.run([])).toBe(2)
    expect(err).toContain('name at least one profile file')
    expect(await initCommand.run(FLAGS)).toBe(0)
    expect(await validateCommand.run(['ledger-conformance.jsonc'])).toBe(2)
    expect(err).toContain('SALES_BASE_URL: must be an absolute http(s) URL')
  })
})
