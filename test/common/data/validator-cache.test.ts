import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAjvFor } from '../../../common/ajv'
import { cachedValidator, validatorKey } from '../../../common/data/validator-cache'
import { tempDir } from '../../support/temp-dir'

const profileSchema = JSON.parse(
  readFileSync(join(__dirname, '../../../fixtures/targets/profile.schema.json'), 'utf8'),
) as object
const good = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/targets/reference.json'), 'utf8')) as Record<
  string,
  unknown
>
const bad = { ...good, tenant: 5, bogus: true, polling: { ...(good.polling as object), maxDelayMs: -1 } }

const dirs: string[] = []
const newDir = () => {
  const d = tempDir('validators')
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('cachedValidator', () => {
  it(
    'validates as a validator compiled in memory, the first time (compiled, kept) and the next (loaded from ' + 'disk)',
    () => {
      const dir = newDir()
      const plain = createAjvFor(profileSchema, { validateSchema: false }).compile(profileSchema)
      const first = cachedValidator(profileSchema, undefined, dir)
      expect(readdirSync(dir)).toHaveLength(1)
      const second = cachedValidator(profileSchema, undefined, dir)
      expect(second).not.toBe(first)
      for (const v of [first, second]) {
        expect(v(good)).toBe(true)
        expect(v(bad)).toBe(false)
        expect(plain(bad)).toBe(false)
        expect(v.errors).toEqual(plain.errors)
      }
      // a pattern runs on the linear-time engine in the loaded code too
      expect(second({ ...good, headers: { tenant: 'not a header name!' } })).toBe(
        plain({ ...good, headers: { tenant: 'not a header name!' } }),
      )
    },
  )

  it('compiles again over a cached file that does not evaluate, and keeps the good code', () => {
    const dir = newDir()
    cachedValidator(profileSchema, undefined, dir)
    const file = join(dir, readdirSync(dir)[0]!)
    writeFileSync(file, 'this is not javascript (')
    const v = cachedValidator(profileSchema, undefined, dir)
    expect(v(bad)).toBe(false)
    expect(readFileSync(file, 'utf8')).toContain('validate')
  })

  it('still validates when the cache folder cannot be written', () => {
    const dir = newDir()
    chmodSync(dir, 0o500)
    const where = join(dir, 'sub')
    try {
      const v = cachedValidator(profileSchema, undefined, where)
      expect(v(good)).toBe(true)
      expect(v(bad)).toBe(false)
    } finally {
      chmodSync(dir, 0o700)
    }
    // root ignores the mode: either way the validator is right, and nothing half-written is left
    if (existsSync(where)) expect(readdirSync(where).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('keys a validator by the schema text and the options', () => {
    const text = JSON.stringify(profileSchema)
    expect(validatorKey(text, { allErrors: true })).toBe(validatorKey(text, { allErrors: true }))
    expect(validatorKey(text, { allErrors: true })).not.toBe(validatorKey(`${text} `, { allErrors: true }))
    expect(validatorKey(text, { allErrors: true })).not.toBe(validatorKey(text, { allErrors: false }))
  })
})
