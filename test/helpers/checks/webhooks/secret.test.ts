import { describe, expect, it } from 'vitest'
import { secretKey, secretShape, withoutStringSecrets } from '../../../../helpers/checks/webhooks/secret'

describe('webhook secrets', () => {
  it('finds the key in an object secret at the pointer, or takes a string secret as the key', () => {
    expect(secretKey({ algorithm: 'sha256', key: 'k1' }, '/key')).toBe('k1')
    expect(secretKey({ value: { hmac: 'k2' } }, '/value/hmac')).toBe('k2')
    expect(secretKey('k3', '/key')).toBe('k3')
    expect(secretKey({}, '/key')).toBeUndefined()
    expect(secretKey('', '/key')).toBeUndefined()
    expect(secretKey(42, '/key')).toBeUndefined()
  })

  it('tells the shape of the secret', () => {
    expect(secretShape({ secret: {} })).toBe('object')
    expect(secretShape({ secret: 's' })).toBe('string')
    expect(secretShape({})).toBe('missing')
    expect(secretShape({ secret: [] })).toBe('other')
    expect(secretShape({ secret: null })).toBe('other')
  })

  it('sets string secrets aside for the contract, leaving everything else as is', () => {
    expect(withoutStringSecrets([{ id: 'a', secret: 's' }, { id: 'b', secret: { key: 'k' } }, { id: 'c' }])).toEqual([
      { id: 'a', secret: {} },
      { id: 'b', secret: { key: 'k' } },
      { id: 'c' },
    ])
    expect(withoutStringSecrets({ id: 'a', secret: 42 })).toEqual({ id: 'a', secret: 42 })
  })
})
