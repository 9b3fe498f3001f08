import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NOTIFICATION_OPERATION } from '../../reference/variations/field-probe'
import { parseMutationArgs } from '../../scripts/mutation/args'
import {
  fieldConsoleReport,
  fieldMarkdownReport,
  notCaught,
  sensitivityLine,
} from '../../scripts/mutation/fields/format'
import {
  freeEntriesOf,
  freeFieldOf,
  loadFreeFields,
  matchesFree,
  normalisePath,
  parseFreeFile,
} from '../../scripts/mutation/fields/free-fields'
import {
  assertFieldOperations,
  classifyField,
  plannedBatches,
  quickBatches,
  quickFile,
  selectFields,
} from '../../scripts/mutation/fields/harness'
import { FieldPerturber, maskedUrl, shownValue } from '../../scripts/mutation/fields/perturber'
import {
  compareKeys,
  EMIT_TEMPLATE,
  fieldClass,
  fileOfTest,
  filesByOperation,
  FieldRecorder,
} from '../../scripts/mutation/fields/record'
import { allCaught, perOperation, rank, sensitivity, stratifiedSample } from '../../scripts/mutation/fields/sensitivity'
import type { FieldEntry, FieldOutcome, FieldResult, FieldSensitivityReport } from '../../scripts/mutation/fields/types'
import { tempDir } from '../support/temp-dir'

const site = (operation: string, status: number | 'sent' = 200) => ({ operation, status, exchange: `GET /x` })

function entry(
  operation: string,
  path: string,
  files: string[] = ['suites/a.test.ts'],
  status: number | 'sent' = 200,
): FieldEntry {
  return {
    operation,
    status,
    path,
    key: `${operation} ${status} ${path}`,
    kind: 'string',
    class: fieldClass(operation),
    seen: 1,
    files,
  }
}

function result(e: FieldEntry, outcome: FieldOutcome, free = false): FieldResult {
  return {
    ...e,
    free,
    outcome,
    applied: outcome === 'not-exercised' ? 0 : 1,
    newFailures: outcome === 'caught' ? [{ id: 'SL-X-001' }] : [],
    wallMs: 1,
  }
}

describe('field map: recording', () => {
  it('records every (operation, status, path) of the bodies it sees, changes nothing, and sorts the map', () => {
    const r = new FieldRecorder()
    const body = {
      data: [
        { id: 1, note: null },
        { id: 2, note: 'x' },
      ],
    }
    expect(r.body(site('sales.policy.invoices'), body)).toBe(body)
    r.body(site('sales.quote.get', 404), { message: 'not found' })
    r.body(site('sales.quote.get'), { policy: { id: 5 } })
    r.body({ operation: NOTIFICATION_OPERATION, status: 'sent', exchange: 'POST http://r' }, { event: 'export' })
    const map = r.entries(() => ['suites/f.test.ts'])
    expect(map.map((e) => e.key)).toEqual([
      'sales.policy.invoices 200 /data/*/id',
      'sales.policy.invoices 200 /data/*/note',
      'sales.quote.get 200 /policy/id',
      'sales.quote.get 404 /message',
      'webhooks.notification sent /event',
    ])
    const note = map.find((e) => e.path === '/data/*/note')!
    // null first, a string later: the kind of the first value that is not dropped
    expect(note.kind).toBe('string')
    expect(note.seen).toBe(2)
    expect(map.find((e) => e.path === '/data/*/id')!.kind).toBe('id')
    expect(map.map((e) => e.class)).toEqual(['read', 'read', 'read', 'read', 'notification'])
  })

  it('classes the answers of writes by the method of their operation', () => {
    expect(fieldClass('sales.quote.create')).toBe('write')
    expect(fieldClass('sales.quote.update')).toBe('write')
    expect(fieldClass('webhooks.subscription.delete')).toBe('write')
    expect(fieldClass('sales.quote.get')).toBe('read')
    expect(fieldClass(NOTIFICATION_OPERATION)).toBe('notification')
  })

  it('sorts by operation, then status (numerically), then path', () => {
    const keys = [
      { operation: 'b', status: 200, path: '/a' },
      { operation: 'a', status: 404, path: '/a' },
      { operation: 'a', status: 200, path: '/b' },
      { operation: 'a', status: 200, path: '/a' },
    ].sort(compareKeys)
    expect(keys.map((k) => `${k.operation} ${k.status} ${k.path}`)).toEqual([
      'a 200 /a',
      'a 200 /b',
      'a 404 /a',
      'b 200 /a',
    ])
  })

  it(
    'finds the files exercising each operation in the traffic: with that status, else any status; notifications by ' +
      'the emit route',
    () => {
      const t = (file: string, operationId?: string, status?: number, template?: string) => ({
        test: `rk-0 > ${file} > block > CHECK-1 does`,
        ...(operationId ? { operationId } : {}),
        ...(status ? { status } : {}),
        ...(template ? { template } : {}),
      })
      const filesOf = filesByOperation([
        t('suites/sales/a.test.ts', 'sales.quote.get', 200),
        t('suites/sales/b.test.ts', 'sales.quote.get', 404),
        t('suites/sales/c.test.ts', 'sales.quote.get', 200),
        t('suites/webhooks/delivery.test.ts', undefined, 202, EMIT_TEMPLATE),
        { operationId: 'sales.quote.get', status: 500 },
      ])
      expect(filesOf({ operation: 'sales.quote.get', status: 200, path: '/x' })).toEqual([
        'suites/sales/a.test.ts',
        'suites/sales/c.test.ts',
      ])
      expect(filesOf({ operation: 'sales.quote.get', status: 404, path: '/x' })).toEqual(['suites/sales/b.test.ts'])
      expect(filesOf({ operation: 'sales.quote.get', status: 500, path: '/x' })).toEqual([
        'suites/sales/a.test.ts',
        'suites/sales/b.test.ts',
        'suites/sales/c.test.ts',
      ])
      expect(filesOf({ operation: NOTIFICATION_OPERATION, status: 'sent', path: '/event' })).toEqual([
        'suites/webhooks/delivery.test.ts',
      ])
      expect(filesOf({ operation: 'sales.quote.bind', status: 200, path: '/x' })).toEqual([])
      expect(fileOfTest('rk > suites/auth/login.test.ts > AUTH-LOGIN-001')).toBe('suites/auth/login.test.ts')
      expect(fileOfTest(undefined)).toBeUndefined()
    },
  )
})

describe('field perturber', () => {
  it('perturbs its field only in the bodies of its operation and status, counting, with the first exchange', () => {
    const p = new FieldPerturber({ operation: 'sales.quote.get', status: 200, path: '/policy/dateInception' })
    const other = { policy: { dateInception: '2026-01-01' } }
    expect(p.body(site('sales.quote.get', 404), other)).toBe(other)
    expect(p.body(site('sales.quote.update'), other)).toBe(other)
    expect(p.applied).toBe(0)
    expect(p.body(site('sales.quote.get'), { policy: { dateInception: '2026-01-01' } })).toEqual({
      policy: { dateInception: '2026-01-02' },
    })
    expect(p.body(site('sales.quote.get'), { policy: {} })).toEqual({ policy: {} })
    expect(p.applied).toBe(1)
    expect(p.example).toEqual({
      exchange: 'GET /x -> 200',
      kind: 'date',
      before: '"2026-01-01"',
      after: '"2026-01-02"',
    })
  })

  it('never shows a secret, and shows the end of a long value', () => {
    expect(shownValue('/secret/key', 'abc')).toBe('[redacted]')
    expect(shownValue('/data/*/access_token', 'abc')).toBe('[redacted]')
    expect(shownValue('/note', undefined)).toBe('(dropped)')
    const long = `${'a'.repeat(100)}z`
    expect(shownValue('/note', long)).toBe(`...${JSON.stringify(long).slice(-77)}`)
  })

  it('masks the path of every URL it shows (a webhook receiver listens on a secret path)', () => {
    expect(shownValue('/url', 'http://127.0.0.1:4567/Qw3rTy-secretToken')).toBe('"http://127.0.0.1:4567/[redacted]"')
    expect(maskedUrl('POST http://127.0.0.1:43047/MmMN2V-BqUolntpQtiTzfA')).toBe(
      'POST http://127.0.0.1:43047/[redacted]',
    )
    expect(maskedUrl('GET /api/v1/ledger/policies/1 and https://example.com/')).toBe(
      'GET /api/v1/ledger/policies/1 and https://example.com/',
    )
    const p = new FieldPerturber({ operation: NOTIFICATION_OPERATION, status: 'sent', path: '/event' })
    p.body(
      { operation: NOTIFICATION_OPERATION, status: 'sent', exchange: 'POST http://127.0.0.1:9/s3cr3t' },
      { event: 'export' },
    )
    expect(p.example?.exchange).toBe('notification POST http://127.0.0.1:9/[redacted]')
  })
})

describe('free fields', () => {
  it('normalises the spellings of a path to a pointer with * items', () => {
    expect(normalisePath('/data/invoices/*/text')).toBe('/data/invoices/*/text')
    expect(normalisePath('/data/invoices/0/text')).toBe('/data/invoices/*/text')
    expect(normalisePath('/data/invoices/-/text')).toBe('/data/invoices/*/text')
    expect(normalisePath('data.invoices[].text')).toBe('/data/invoices/*/text')
    expect(normalisePath('$.data.invoices[*].text')).toBe('/data/invoices/*/text')
    expect(normalisePath('/')).toBe('')
  })

  it('matches by operation, status and path, with * and ** as wildcards', () => {
    const k = { operation: 'sales.quote.get', status: 404, path: '/errors/policy~1date/*' }
    expect(matchesFree({ operation: 'sales.quote.get', path: '/errors/**' }, k)).toBe(true)
    expect(matchesFree({ operation: '*', status: '*', path: '/errors/*/*' }, k)).toBe(true)
    expect(matchesFree({ operation: 'sales.quote.get', status: 200, path: '/errors/**' }, k)).toBe(false)
    expect(matchesFree({ operation: 'sales.quote.create', path: '/errors/**' }, k)).toBe(false)
    expect(matchesFree({ operation: 'sales.quote.get', path: '/errors/*' }, k)).toBe(false)
    expect(
      matchesFree({ operation: '*', path: '/**/message' }, { operation: 'x', status: 401, path: '/message' }),
    ).toBe(true)
    // a status class: every error answer of every operation, never a 2xx or a notification
    expect(
      matchesFree({ operation: '*', status: '4xx', path: '/**' }, { operation: 'x.y', status: 409, path: '/code' }),
    ).toBe(true)
    expect(
      matchesFree({ operation: '*', status: '4xx', path: '/**' }, { operation: 'x.y', status: 200, path: '/code' }),
    ).toBe(false)
    expect(
      matchesFree({ operation: '*', status: '4xx', path: '/**' }, { operation: 'x.y', status: 'sent', path: '/code' }),
    ).toBe(false)
    expect(freeEntriesOf({ T: { '* 4xx': { '/**': { kind: 'free', what: 'error bodies are open' } } } })).toEqual([
      { operation: '*', status: '4xx', path: '/**' },
    ])
    expect(
      freeFieldOf([{ operation: 'x', path: '/a', reason: 'r' }], { operation: 'x', status: 200, path: '/a' })?.reason,
    ).toBe('r')
  })

  it('reads the free entries of a table of answer sources, however it is nested', () => {
    const table = {
      ANSWER_SOURCES: [
        {
          operation: 'sales.quote.get',
          status: 200,
          path: '/message',
          source: 'free',
          reason: 'sales §4 leaves it open',
        },
        { operation: 'sales.quote.get', status: 200, path: '/policy/id', source: 'state' },
        { op: 'webhooks.events.list', pointer: '/*/description', source: { kind: 'free' } },
      ],
      BY_OPERATION: {
        'sales.quote.create 422': { '/message': { source: 'free' }, '/errors/**': { kind: 'echo' } },
        'sales.quote.bind': [{ path: '/note', free: true }],
      },
    }
    expect(freeEntriesOf(table)).toEqual([
      { operation: 'sales.quote.get', status: '200', path: '/message', reason: 'sales §4 leaves it open' },
      { operation: 'webhooks.events.list', path: '/*/description' },
      { operation: 'sales.quote.create', status: '422', path: '/message' },
      { operation: 'sales.quote.bind', path: '/note' },
    ])
  })

  it('reads a --free file of objects or of "<operation> [<status>] <path>" lines, and refuses anything else', () => {
    expect(
      parseFreeFile(
        '// free\n["sales.quote.get /message", "sales.quote.get 404 /message", { "operation": "x", "path": "/a", ' +
          '"reason": "r" }]',
      ),
    ).toEqual([
      { operation: 'sales.quote.get', path: '/message' },
      { operation: 'sales.quote.get', status: '404', path: '/message' },
      { operation: 'x', path: '/a', reason: 'r' },
    ])
    expect(parseFreeFile('{ "free": ["a /b"] }')).toEqual([{ operation: 'a', path: '/b' }])
    expect(() => parseFreeFile('["one"]')).toThrow(/free field #1/)
    expect(() => parseFreeFile('{}')).toThrow(/JSON array/)
  })

  it('without a table of answer sources nor a file, no field is free', async () => {
    const root = tempDir('free')
    const none = await loadFreeFields({ root })
    expect(none.fields).toEqual([])
    expect(none.source).toMatch(/every field counts as non-free/)
    const file = join(root, 'free.json')
    writeFileSync(file, '["sales.quote.get /message"]')
    const some = await loadFreeFields({ root, file })
    expect(some.fields).toHaveLength(1)
    expect(some.source).toContain('(1 free)')
  })
})

describe('field sensitivity: the arithmetic', () => {
  it(
    'is caught over scored non-free fields; not-exercised fields are not scored; free fields caught are false ' +
      'alarms',
    () => {
      const e = (p: string) => entry('sales.quote.get', p)
      const rs = [
        result(e('/a'), 'caught'),
        result(e('/b'), 'stopped'),
        result(e('/c'), 'missed'),
        result(e('/d'), 'inconclusive'),
        result(e('/e'), 'error'),
        result(e('/f'), 'not-exercised'),
        result(e('/g'), 'missed', true),
        result(e('/h'), 'caught', true),
      ]
      expect(sensitivity(rs)).toEqual({
        fields: 8,
        free: 2,
        scored: 5,
        caught: 2,
        missed: 1,
        inconclusive: 1,
        error: 1,
        notExercised: 1,
        freeCaught: 1,
        ratio: 0.4,
      })
      expect(sensitivity([]).ratio).toBe(1)
      expect(allCaught(rs)).toBe(false)
      expect(allCaught([rs[0]!, rs[1]!, rs[6]!])).toBe(true)
    },
  )

  it('splits per operation in the order of the map', () => {
    const rs = [
      result(entry('sales.quote.create', '/a'), 'caught'),
      result(entry('sales.quote.create', '/b'), 'missed'),
      result(entry('sales.quote.get', '/a'), 'caught'),
    ]
    expect(perOperation(rs).map((o) => [o.operation, o.caught, o.scored])).toEqual([
      ['sales.quote.create', 1, 2],
      ['sales.quote.get', 1, 1],
    ])
  })

  it(
    'samples each operation in proportion to its fields, by a seeded rank: exactly the size, the same every ' + 'time',
    () => {
      const items = [
        ...Array.from({ length: 60 }, (_, i) => `a ${String(i).padStart(2, '0')}`),
        ...Array.from({ length: 30 }, (_, i) => `b ${String(i).padStart(2, '0')}`),
        ...Array.from({ length: 10 }, (_, i) => `c ${i}`),
      ]
      const op = (s: string) => s.split(' ')[0]!
      const sample = (list: string[], seed = 1) => stratifiedSample(list, 10, seed, op, (s) => s)
      const one = sample(items)
      expect(one).toHaveLength(10)
      expect(one.map(op)).toEqual(['a', 'a', 'a', 'a', 'a', 'a', 'b', 'b', 'b', 'c'])
      expect(sample(items)).toEqual(one)
      expect(one).toEqual(items.filter((i) => one.includes(i)))
      expect(sample(items, 2)).not.toEqual(one)
      // a field that comes or goes displaces at most one pick of its operation
      const more = sample([...items.slice(0, 30), 'a 29x', ...items.slice(30)])
      expect(more.filter((i) => !one.includes(i)).length).toBeLessThanOrEqual(1)
      const fewer = sample(items.filter((i) => i !== one[0]))
      expect(fewer.filter((i) => !one.includes(i)).length).toBeLessThanOrEqual(1)
      expect(stratifiedSample(['x 1', 'y 2'], 40, 1, op, (s) => s)).toEqual(['x 1', 'y 2'])
      expect(stratifiedSample(items, 0, 1, op, (s) => s)).toEqual([])
      expect(rank(1, 'k')).toBe(rank(1, 'k'))
      expect(rank(1, 'k')).not.toBe(rank(2, 'k'))
    },
  )

  it('selects the sample among the non-free fields only; the whole map with every field', () => {
    const map = Array.from({ length: 10 }, (_, i) => entry(i < 5 ? 'a.op' : 'b.op', `/f${i}`))
    const free = [{ operation: 'a.op', path: '/f0' }]
    const s = selectFields(map, free, { mode: 'sample', sampleSize: 3, sampleSeed: 1 })
    expect(s.selection).toEqual({ mode: 'sample', size: 3, of: 9, seed: 1 })
    expect(s.selected.map((e) => e.path)).not.toContain('/f0')
    expect(s.selected).toEqual(map.filter((e) => s.selected.includes(e)))
    expect(selectFields(map, free, { mode: 'sample', sampleSize: 3, sampleSeed: 1 }).selected).toEqual(s.selected)
    expect(selectFields(map, free, { mode: 'all', sampleSeed: 1 }).selected).toHaveLength(10)
    expect(selectFields(map, free, { mode: 'all', sampleSeed: 1, operations: ['b.op'] }).selected).toHaveLength(5)
  })

  it('batches the fields that run the same files', () => {
    const a = ['suites/a.test.ts']
    const b = ['suites/b.test.ts']
    const batches = plannedBatches(
      [entry('x', '/1', a), entry('x', '/2', b), entry('x', '/3', a), entry('x', '/4', a)],
      2,
    )
    expect(batches.map((u) => [u.files, u.entries.map((e) => e.path)])).toEqual([
      [a, ['/1', '/3']],
      [a, ['/4']],
      [b, ['/2']],
    ])
  })

  it(
    'lets a partial batch take the fields of a smaller one whose files are all among its own, when that costs less ' +
      'than a run',
    () => {
      const f = (n: number) => Array.from({ length: n }, (_, i) => `suites/f${i}.test.ts`)
      const batches = plannedBatches(
        [
          entry('x', '/big', f(5)),
          entry('x', '/small', f(1)),
          entry('x', '/mid', f(3)),
          entry('x', '/other', ['suites/zz.test.ts']),
          entry('x', '/whole', []),
        ],
        6,
      )
      // f(1) ⊂ f(5) and 5 <= 2*1+3: joins the big batch; so does f(3) (5 <= 2*3+3); zz.test.ts is in no other batch
      expect(batches.map((u) => [u.files.length, u.entries.map((e) => e.path)])).toEqual([
        [5, ['/big', '/small', '/mid']],
        [1, ['/other']],
        [0, ['/whole']],
      ])
      // never into a full batch, never one that is not a superset
      const full = plannedBatches([entry('x', '/a', f(2)), entry('x', '/b', f(2)), entry('x', '/c', f(1))], 2)
      expect(full.map((u) => u.entries.map((e) => e.path))).toEqual([['/a', '/b'], ['/c']])
    },
  )
})

describe('field sensitivity: the quick pass', () => {
  const cost = { 'suites/big.test.ts': 100, 'suites/small.test.ts': 10, 'suites/topic.test.ts': 40 }

  it(
    "runs a field on the file where its operation's answers are the largest share of the traffic; a field of one " +
      'file has no quick pass',
    () => {
      const e = entry('x.op', '/a', ['suites/big.test.ts', 'suites/small.test.ts', 'suites/topic.test.ts'])
      // shares: big 30/100, small 1/10, topic 20/40
      expect(
        quickFile(e, cost, {
          'x.op 200': { 'suites/big.test.ts': 30, 'suites/small.test.ts': 1, 'suites/topic.test.ts': 20 },
        }),
      ).toBe('suites/topic.test.ts')
      // no answers known: the cheapest file
      expect(quickFile(e, cost)).toBe('suites/small.test.ts')
      expect(quickFile(entry('x.op', '/b', ['suites/big.test.ts']), cost)).toBeUndefined()
    },
  )

  it('groups the fields of one quick file into runs of at most `batch`, and leaves out the fields of one file', () => {
    const files = ['suites/big.test.ts', 'suites/small.test.ts']
    const batches = quickBatches(
      [
        entry('x', '/1', files),
        entry('x', '/2', files),
        entry('x', '/3', files),
        entry('x', '/4', ['suites/big.test.ts']),
      ],
      cost,
      2,
    )
    expect(batches.map((b) => [b.files, b.entries.map((e) => e.path)])).toEqual([
      [['suites/small.test.ts'], ['/1', '/2']],
      [['suites/small.test.ts'], ['/3']],
    ])
  })
})

describe('field sensitivity: judging a perturbed run', () => {
  type Check = { id: string; status: string; error?: string }
  const checks = (...c: Check[]) => c as unknown as Parameters<typeof classifyField>[0]['checks']
  const base = new Set<string>(['BROKEN-001'])

  it('caught: a check failed that passed against the control and in the clean run', () => {
    const r = classifyField({
      checks: checks(
        { id: 'A', status: 'failed', error: 'first\nsecond' },
        { id: 'BROKEN-001', status: 'failed' },
        { id: 'C', status: 'failed' },
      ),
      control: checks({ id: 'C', status: 'failed' }),
      baselineFailed: base,
      applied: 3,
    })
    expect(r).toEqual({ outcome: 'caught', newFailures: [{ id: 'A', error: 'first' }] })
  })

  it('inconclusive: no new failure, but a new errored or blocked check; missed: as green as the control', () => {
    expect(
      classifyField({
        checks: checks({ id: 'A', status: 'blocked' }),
        control: checks({ id: 'A', status: 'passed' }),
        baselineFailed: base,
        applied: 1,
      }),
    ).toEqual({ outcome: 'inconclusive', newFailures: [], newOther: ['A (blocked)'] })
    expect(
      classifyField({
        checks: checks({ id: 'A', status: 'passed' }),
        control: checks({ id: 'A', status: 'passed' }),
        baselineFailed: base,
        applied: 1,
      }).outcome,
    ).toBe('missed')
  })

  it(
    'not-exercised when nothing was perturbed; stopped when the run refused to start with its own message; error ' +
      'when it broke',
    () => {
      expect(
        classifyField({
          checks: checks({ id: 'A', status: 'failed' }),
          control: checks(),
          baselineFailed: base,
          applied: 0,
        }).outcome,
      ).toBe('not-exercised')
      expect(
        classifyField({
          checks: undefined,
          control: undefined,
          baselineFailed: base,
          applied: 2,
          stop: 'Login failed: no usable JWT. No check was run.',
        }).outcome,
      ).toBe('stopped')
      expect(
        classifyField({ checks: undefined, control: undefined, baselineFailed: base, applied: 2, stop: 'TypeError: x' })
          .outcome,
      ).toBe('error')
    },
  )
})

describe('field sensitivity: reports and options', () => {
  const results = [
    result(entry('sales.quote.create', '/a'), 'caught'),
    {
      ...result(entry('sales.quote.create', '/b'), 'missed'),
      example: { exchange: 'POST /c -> 200', before: '"x"', after: '"y"' },
    },
  ]
  const report: FieldSensitivityReport = {
    startedAt: '2026-11-28T10:00:00.000Z',
    wallMs: 1000,
    record: { wallMs: 500, checksRun: 10, failed: [], entries: 2, operations: 1 },
    seed: 39,
    selection: { mode: 'all' },
    batch: 6,
    parallel: 2,
    freeSource: 'none',
    overall: sensitivity(results),
    writes: sensitivity(results),
    reads: sensitivity([]),
    notifications: sensitivity([]),
    perOperation: perOperation(results),
    controlFailures: [],
    results,
    map: results,
    allCaught: false,
    passed: true,
  }

  it('lists what was not caught with the exchange, in the console and the markdown', () => {
    expect(notCaught(report).map((r) => r.path)).toEqual(['/b'])
    expect(sensitivityLine(report.overall)).toMatch(/^1\/2 caught \(50\.0%\); missed 1/)
    const text = fieldConsoleReport(report)
    expect(text).toContain('POST /c -> 200')
    expect(text).toContain('"x" -> "y"')
    expect(fieldMarkdownReport(report)).toMatch(/## Not caught \(1\)[\s\S]*\| sales\.quote\.create \| 200 \| \/b \|/)
  })

  it(
    'parses --fields, --fields-sample N, --fail-on-miss, --free and --operations; refuses them without a field ' +
      'mode',
    () => {
      expect(parseMutationArgs(['--fields']).fields).toEqual({
        mode: 'all',
        sampleSeed: 1,
        failOnMiss: false,
        full: false,
      })
      expect(parseMutationArgs(['--fields', '--fields-full']).fields?.full).toBe(true)
      // --bar in a field mode: the nightly's bar (95 % and every write's answer field)
      expect(parseMutationArgs(['--fields', '--bar', '95']).fields?.bar).toBe(0.95)
      expect(parseMutationArgs(['--fields']).fields?.bar).toBeUndefined()
      expect(() => parseMutationArgs(['--fields-full'])).toThrow(/go with --fields/)
      const a = parseMutationArgs([
        '--fields-sample',
        '40',
        '--fail-on-miss',
        '--free',
        'f.json',
        '--operations',
        'a,b',
        '--fields-seed',
        '3',
      ])
      expect(a.fields).toEqual({
        mode: 'sample',
        sampleSize: 40,
        sampleSeed: 3,
        failOnMiss: true,
        full: false,
        free: 'f.json',
        operations: ['a', 'b'],
      })
      expect(a.batch).toBe(4)
      expect(parseMutationArgs([]).batch).toBe(1)
      expect(parseMutationArgs([]).fields).toBeUndefined()
      expect(() => parseMutationArgs(['--fail-on-miss'])).toThrow(/go with --fields/)
      expect(() => parseMutationArgs(['--fields', '--fields-sample', '4'])).toThrow(/not both/)
      expect(() => parseMutationArgs(['--fields-sample', '0'])).toThrow(/--fields-sample/)
    },
  )

  it('refuses an --operations id that names no operation, before any run', () => {
    expect(() => assertFieldOperations(['sales.quote.create', 'webhooks.notification'])).not.toThrow()
    expect(() => assertFieldOperations(['sales.quote.creat', 'x'])).toThrow(
      /unknown operation\(s\): sales\.quote\.creat, x/,
    )
  })
})
