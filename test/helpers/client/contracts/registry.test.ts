import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ContractRegistry } from '../../../../helpers/client/contracts/registry'
import { tempDir } from '../../../support/temp-dir'

function dir(): string {
  const d = tempDir('contracts')
  mkdirSync(join(d, 'area'))
  writeFileSync(
    join(d, 'area', 'thing.json'),
    JSON.stringify({
      type: 'object',
      required: ['id', 'at'],
      properties: { id: { type: 'string' }, at: { type: 'string', format: 'date-time' }, part: { $ref: 'part' } },
    }),
  )
  writeFileSync(join(d, 'area', 'part.json'), JSON.stringify({ type: 'integer', minimum: 0 }))
  return d
}

describe('ContractRegistry', () => {
  it('loads every schema by its path, resolves a sibling $ref by file name, checks formats', () => {
    const r = new ContractRegistry(dir())
    expect(r.names()).toEqual(['area/part', 'area/thing'])
    expect(r.validate('area/thing', { id: 'x', at: '2026-01-01T00:00:00Z', part: 2 })).toEqual({
      valid: true,
      errors: [],
    })
    const bad = r.validate('area/thing', { id: 1, at: 'yesterday', part: -1 })
    expect(bad.valid).toBe(false)
    expect(bad.errors.join('\n')).toMatch(/\/id: must be string/)
    expect(bad.errors.join('\n')).toMatch(/\/at: must match format "date-time"/)
    expect(bad.errors.join('\n')).toMatch(/\/part: must be >= 0/)
  })

  it('names a missing contract', () => {
    expect(() => new ContractRegistry(dir()).validate('nope', {})).toThrow(/unknown contract 'nope'/)
  })

  it('the project contracts compile', () => {
    const r = new ContractRegistry()
    expect(r.names().length).toBeGreaterThan(10)
    expect(() => r.compileAll()).not.toThrow()
  })

  it('compiles a contract on first use and names a broken one', () => {
    const d = dir()
    writeFileSync(
      join(d, 'area', 'broken.json'),
      JSON.stringify({ type: 'object', properties: { x: { $ref: 'missing' } } }),
    )
    const r = new ContractRegistry(d)
    expect(r.validate('area/part', 3).valid).toBe(true)
    expect(() => r.validate('area/broken', {})).toThrow(/contract area\/broken did not compile/)
    expect(() => r.compileAll()).toThrow(/contract area\/broken did not compile/)
  })
})
