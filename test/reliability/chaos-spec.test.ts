import { describe, expect, it } from 'vitest'
import { chaosFromEnv } from '../../reference/chaos/env'
import { SeededRandom } from '../../reference/chaos/prng'
import { formatChaos, parseChaos } from '../../reference/chaos/spec'

describe('chaos spec', () => {
  it('parses every field', () => {
    const o = parseChaos(
      '503=0.05, latency=0-200, seed=7, retryAfter=1, reset=0.01, slow=0.1, slowMs=200, garbage=0.02, ' +
        'garbageKind=html, methods=all',
    )
    expect(o).toEqual({
      seed: 7,
      latency: { minMs: 0, maxMs: 200 },
      unavailable: 0.05,
      retryAfterSeconds: 1,
      reset: 0.01,
      slow: 0.1,
      slowMs: 200,
      garbage: 0.02,
      garbageKind: 'html',
      methods: 'all',
    })
    expect(parseChaos(formatChaos(o))).toEqual(o)
    expect(parseChaos('latency=50').latency).toEqual({ minMs: 50, maxMs: 50 })
  })

  it('names the offending field', () => {
    expect(() => parseChaos('503=1.5')).toThrow(/field '503'.*fraction/)
    expect(() => parseChaos('latency=200-100')).toThrow(/field 'latency'/)
    expect(() => parseChaos('latency=fast')).toThrow(/field 'latency'/)
    expect(() => parseChaos('seed=-1')).toThrow(/field 'seed'/)
    expect(() => parseChaos('jitter=0.1')).toThrow(/unknown field 'jitter'/)
    expect(() => parseChaos('garbageKind=xml')).toThrow(/field 'garbageKind'/)
    expect(() => parseChaos('503')).toThrow(/expected key=value/)
    expect(() => parseChaos('503=0.6,reset=0.6')).toThrow(/add up to more than 1/)
    expect(() => parseChaos('seed=1,seed=2')).toThrow(/field 'seed': given twice/)
  })

  it('REFERENCE_CHAOS is read for the embedded service only, errors start with the variable name', () => {
    expect(chaosFromEnv({}, true)).toBeUndefined()
    expect(chaosFromEnv({ REFERENCE_CHAOS: '503=0.05' }, true)?.unavailable).toBe(0.05)
    expect(() => chaosFromEnv({ REFERENCE_CHAOS: '503=x' }, true)).toThrow(/^REFERENCE_CHAOS: field '503'/)
    expect(() => chaosFromEnv({ REFERENCE_CHAOS: '503=0.05' }, false)).toThrow(/only applies to the embedded/)
  })

  it('the PRNG is reproducible per seed and differs between seeds', () => {
    const seq = (seed: number) => {
      const r = new SeededRandom(seed)
      return Array.from({ length: 5 }, () => r.next())
    }
    expect(seq(7)).toEqual(seq(7))
    expect(seq(7)).not.toEqual(seq(8))
    for (const v of seq(3)) expect(v >= 0 && v < 1).toBe(true)
  })
})
