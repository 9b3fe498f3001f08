import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseMutationArgs } from '../../scripts/mutation/args'
import { areaSuites, plannedUnits } from '../../scripts/mutation/harness'
import { mergeProfile } from '../../scripts/harness/merge-profile'
import { mapPool } from '../../scripts/mutation/pool'
import { firstFailureMs, isPreflightStop, outputTail, stopMessage } from '../../scripts/mutation/summarize'
import { tempDir } from '../support/temp-dir'

describe('mergeProfile', () => {
  it('merges objects deeply and replaces arrays and scalars', () => {
    const base = {
      name: 'reference',
      statuses: { pending: ['pending'], success: ['success'] },
      polling: { longPolling: true, maxDelayMs: 100 },
    }
    expect(
      mergeProfile(base, { statuses: { success: ['COMPLETED'] }, polling: { maxDelayMs: 50 }, name: 'x' }),
    ).toEqual({
      name: 'x',
      statuses: { pending: ['pending'], success: ['COMPLETED'] },
      polling: { longPolling: true, maxDelayMs: 50 },
    })
    expect(base.statuses.success).toEqual(['success'])
  })
})

describe('mapPool', () => {
  it('keeps order and never runs more than the concurrency at once', async () => {
    let running = 0
    let peak = 0
    const out = await mapPool([5, 1, 4, 2, 3], 2, async (n) => {
      running += 1
      peak = Math.max(peak, running)
      await new Promise((r) => setTimeout(r, n))
      running -= 1
      return n * 10
    })
    expect(out).toEqual([50, 10, 40, 20, 30])
    expect(peak).toBe(2)
  })
  it('handles no items', async () => {
    expect(await mapPool([], 2, async (n: number) => n)).toEqual([])
  })
})

describe('summarize parts', () => {
  it('finds the preflight line and strips colours', () => {
    const out = 'RUN v4\n\u001b[31mError: Login failed: bad. No check was run.\u001b[39m\nmore'
    expect(stopMessage(out)).toBe('Login failed: bad. No check was run.')
    expect(isPreflightStop(stopMessage(out))).toBe(true)
    expect(stopMessage('x\nError: boom\n')).toBe('boom')
    expect(isPreflightStop('boom')).toBe(false)
    expect(stopMessage('all fine')).toBeUndefined()
    expect(outputTail('a\nb\nc', 2)).toBe('b\nc')
  })
  it('measures the time to the first failed check from allure results', () => {
    const dir = tempDir('allure')
    try {
      mkdirSync(join(dir, 'r'))
      writeFileSync(join(dir, 'r', 'a-result.json'), JSON.stringify({ status: 'passed', stop: 1_000_100 }))
      writeFileSync(join(dir, 'r', 'b-result.json'), JSON.stringify({ status: 'failed', stop: 1_000_900 }))
      writeFileSync(join(dir, 'r', 'c-result.json'), JSON.stringify({ status: 'failed', stop: 1_000_400 }))
      writeFileSync(join(dir, 'r', 'd-attachment.json'), '{}')
      expect(firstFailureMs(join(dir, 'r'), 1_000_000)).toBe(400)
      expect(firstFailureMs(join(dir, 'missing'), 0)).toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('parseMutationArgs', () => {
  it('defaults to 2 in parallel, a 100% bar and everything', () => {
    expect(parseMutationArgs([])).toEqual({ parallel: 2, bar: 1, scope: 'suite', timeoutMs: 600_000, batch: 1 })
  })
  it('takes lists, subsets and switches', () => {
    const a = parseMutationArgs([
      '--defects',
      'a,b',
      '--defects',
      'c',
      '--no-variations',
      '--files',
      'suites/auth',
      '--bar',
      '90',
      '--parallel',
      '1',
    ])
    expect(a).toMatchObject({ defects: ['a', 'b', 'c'], variations: [], files: ['suites/auth'], bar: 0.9, parallel: 1 })
  })
  it('rejects bad numbers and unknown flags', () => {
    expect(() => parseMutationArgs(['--parallel', '0'])).toThrow(/--parallel/)
    expect(() => parseMutationArgs(['--bar', '101'])).toThrow(/--bar/)
    expect(() => parseMutationArgs(['--nope'])).toThrow()
    expect(() => parseMutationArgs(['--scope', 'file'])).toThrow(/--scope/)
    expect(parseMutationArgs(['--scope', 'area']).scope).toBe('area')
  })
})

describe('areaSuites', () => {
  it('maps an area to its suites, auth with security, and falls back to the whole suite', () => {
    const has = (p: string) => ['suites/auth', 'suites/security', 'suites/sales', 'suites/policies'].includes(p)
    expect(areaSuites('auth', has)).toEqual(['suites/auth', 'suites/security'])
    expect(areaSuites('sales', has)).toEqual(['suites/sales', 'suites/policies'])
    expect(areaSuites('reliability', has)).toBeUndefined()
  })
})

describe('plannedUnits', () => {
  const d = (name: string) => ({ kind: 'defect' as const, name })
  it('runs the faithful reference first, then each item alone with batch 1', () => {
    expect(plannedUnits([d('a'), d('b')], 1, () => undefined)).toEqual([
      { kind: 'baseline' },
      { kind: 'single', item: d('a') },
      { kind: 'single', item: d('b') },
    ])
  })
  it('batches the items that run the same suites, at most batch of them to a run', () => {
    const files = (i: { name: string }) => (i.name.startsWith('x') ? ['suites/x'] : undefined)
    expect(plannedUnits([d('a'), d('x1'), d('b'), d('c'), d('x2')], 2, files)).toEqual([
      { kind: 'baseline' },
      { kind: 'batch', items: [d('a'), d('b')] },
      { kind: 'batch', items: [d('c')] },
      { kind: 'batch', items: [d('x1'), d('x2')], files: ['suites/x'] },
    ])
  })
})
