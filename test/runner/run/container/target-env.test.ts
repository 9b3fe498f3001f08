import { describe, expect, it } from 'vitest'
import { referenceArgs } from '../../../../runner/run/container/reference-args'
import {
  containerTargetFromEnv,
  ContainerTargetError,
  REFERENCE_IMAGE,
} from '../../../../runner/run/container/target-env'

describe('containerTargetFromEnv', () => {
  it('is undefined when neither TARGET=container nor TARGET_IMAGE is set', () => {
    expect(containerTargetFromEnv({})).toBeUndefined()
    expect(containerTargetFromEnv({ TARGET: 'embedded' })).toBeUndefined()
  })

  it('TARGET=container selects the reference image with its health route', () => {
    expect(containerTargetFromEnv({ TARGET: 'container' })).toEqual({
      image: REFERENCE_IMAGE,
      reference: true,
      port: 4010,
      healthPath: '/health',
      startupTimeoutMs: 60_000,
    })
    expect(containerTargetFromEnv({ TARGET: 'container', REFERENCE_IMAGE: 'mirror.local/ref:1' })?.image).toBe(
      'mirror.local/ref:1',
    )
  })

  it('TARGET_IMAGE selects another image, which is not treated as the reference', () => {
    const t = containerTargetFromEnv({
      TARGET_IMAGE: 'acme/sales:2.3',
      TARGET_PORT: '8080',
      TARGET_HEALTH_PATH: '/ready',
    })
    expect(t).toEqual({
      image: 'acme/sales:2.3',
      reference: false,
      port: 8080,
      healthPath: '/ready',
      startupTimeoutMs: 60_000,
    })
  })

  it('names every bad variable, and refuses SALES_BASE_URL with a container', () => {
    try {
      containerTargetFromEnv({
        TARGET: 'container',
        TARGET_PORT: '0',
        TARGET_HEALTH_PATH: 'health',
        SALES_BASE_URL: 'http://x',
      })
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(ContainerTargetError)
      const m = (e as Error).message
      expect(m).toContain('TARGET_PORT')
      expect(m).toContain('TARGET_HEALTH_PATH')
      expect(m).toContain('SALES_BASE_URL')
    }
    expect(() => containerTargetFromEnv({ TARGET: 'docker' })).toThrow(/TARGET: must be 'container'/)
  })
})

describe('referenceArgs', () => {
  it('passes the profile timings and the defects to the reference command line', () => {
    expect(referenceArgs({ lockMs: 10, issueMs: 20, defects: ['a', 'b'] })).toEqual([
      '--lock-ms',
      '10',
      '--issue-ms',
      '20',
      '--defect',
      'a',
      '--defect',
      'b',
    ])
    expect(referenceArgs({ defects: [] })).toEqual([])
  })
})
