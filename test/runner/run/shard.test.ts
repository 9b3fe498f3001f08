import { describe, expect, it } from 'vitest'
import { parseShard, shardProblems, shardSeed, type ShardInfo } from '../../../runner/run/shard'

const info = (index: number, over: Partial<ShardInfo> = {}, scope: Partial<ShardInfo['scope']> = {}): ShardInfo => ({
  index,
  count: 3,
  runId: 'ci-42',
  seed: '7',
  scope: {
    profile: 'staging',
    salesBaseUrl: 'https://staging.example',
    tenant: 'acme',
    selection: '(all)',
    strict: false,
    thorough: false,
    ...scope,
  },
  startedAt: '2026-11-27T07:00:00.000Z',
  ...over,
})

describe('run --shard i/n', () => {
  it('takes i/n with 1 <= i <= n and names the option otherwise', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 })
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 })
    for (const bad of ['0/2', '3/2', '2', 'a/b', '1/0', '1/65', '-1/2'])
      expect(() => parseShard(bad), bad).toThrow(/^--shard: expected i\/n/)
  })

  it('derives one seed from the run id, so the shards of one run share it', () => {
    expect(shardSeed('ci-42')).toBe(shardSeed('ci-42'))
    expect(shardSeed('ci-42')).not.toBe(shardSeed('ci-43'))
    expect(Number(shardSeed('ci-42'))).toBeLessThan(2 ** 31)
  })
})

describe('ledger-conformance merge: which shard folders make one run', () => {
  const all = [1, 2, 3].map((i) => ({ dir: `s${i}`, info: info(i) }))

  it('accepts every shard of one run, in any order', () => {
    expect(shardProblems([...all].reverse())).toEqual([])
  })

  it("refuses a missing shard, a shard given twice and a folder that is not a shard's, naming each", () => {
    expect(shardProblems(all.slice(0, 2))).toEqual([
      'shard 3/3 is missing (its reports folder was not given, or its job did not upload it)',
    ])
    expect(shardProblems([...all, { dir: 'copy', info: info(2) }])).toEqual(['shard 2/3 is given 2 times (s2, copy)'])
    expect(shardProblems([...all, { dir: 'reports', info: undefined }])[0]).toMatch(
      /^reports is not a shard's reports folder: it holds no shard.json/,
    )
  })

  it('refuses shards of different runs, targets, selections or options', () => {
    const other = (over: Partial<ShardInfo>, scope: Partial<ShardInfo['scope']> = {}) =>
      shardProblems([all[0]!, all[1]!, { dir: 's3', info: info(3, over, scope) }])
    expect(other({ runId: 'ci-41' })).toEqual([
      expect.stringMatching(
        /^the shards are not of one run: the run id .* differs \(s1: ci-42; s2: ci-42; s3: ci-41\)$/,
      ),
    ])
    expect(other({ count: 4 })[0]).toMatch(/the number of shards differs/)
    expect(other({}, { salesBaseUrl: 'https://prod.example' })[0]).toMatch(/the target differs/)
    expect(other({}, { profile: 'prod' })[0]).toMatch(/the profile differs/)
    expect(other({}, { selection: '--check SL-' })[0]).toMatch(/the selection differs/)
    expect(other({}, { thorough: true })[0]).toMatch(/the options differ/)
    expect(other({ seed: '8' })[0]).toMatch(/the seed differs/)
  })
})
