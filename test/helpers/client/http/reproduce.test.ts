import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { curlOf, reproduceLine } from '../../../../helpers/client/http/reproduce'
import { failureFields } from '../../../../runner/run/results/failure-fields'
import { renderFailure } from '../../../../helpers/checks/failure'
import type { FailureRecord } from '../../../../helpers/checks/task-meta'

describe('a failure reproduced with curl', () => {
  it('puts secrets as shell variables, never values, and quotes the rest for the shell', () => {
    const c = curlOf({
      method: 'post',
      url: "http://t.example/api/x?q=it's",
      request: {
        headers: {
          authorization: 'Bearer [REDACTED]',
          'x-tenant-id': 'acme',
          host: 't.example',
          'content-length': '40',
        },
        body: '{"username":"u","password":"[REDACTED]","note":"it\'s"}',
      },
    })
    expect(c.command).toBe(
      `curl -sS -i -X POST 'http://t.example/api/x?q=it'\\''s' -H 'authorization: Bearer '"$AUTH_TOKEN" -H ` +
        `'x-tenant-id: acme' --data-raw '{"username":"u","password":"'"$AUTH_PASSWORD"'","note":"it'\\''s"}'`,
    )
    expect(c.variables).toEqual(['AUTH_TOKEN', 'AUTH_PASSWORD'])
    // the shell reads it back as the request: each argument as it was meant, the variables expanded
    const argv = execFileSync('sh', ['-c', `printf '%s\\n' ${c.command.replace(/^curl /, '')}`], {
      env: { AUTH_TOKEN: 'T', AUTH_PASSWORD: 'P' },
      encoding: 'utf8',
    }).split('\n')
    expect(argv).toContain("http://t.example/api/x?q=it's")
    expect(argv).toContain('authorization: Bearer T')
    expect(argv).toContain('{"username":"u","password":"P","note":"it\'s"}')
    expect(reproduceLine({ method: 'GET', url: 'http://t/x', request: { headers: {} } })).toBe(
      "reproduce: curl -sS -i -X GET 'http://t/x'",
    )
  })

  it(
    "gives checks.json a failure's expected, actual, request and reproduction as the fields of its record, and its " +
      'text the same',
    () => {
      const record: FailureRecord = {
        kind: 'failed',
        id: 'SL-1',
        clause: 'sales-service.md §4',
        requirement: 'r',
        expectation: { kind: 'status', statuses: [201], classes: ['2'] },
        expected: 'status 201',
        actual: 'status 200',
        request: 'POST http://t/x {}',
        response: '200 application/json {}',
        reproduce: [{ command: "curl -sS -i -X POST 'http://t/x'", variables: ['AUTH_TOKEN'] }],
      }
      expect(failureFields(record.clause, record.requirement, record)).toEqual({
        clause: 'sales-service.md §4',
        requirement: 'r',
        expected: 'status 201',
        actual: 'status 200',
        request: 'POST http://t/x {}',
        response: '200 application/json {}',
        reproduce: ["curl -sS -i -X POST 'http://t/x'"],
      })
      expect(renderFailure(record).split('\n')).toEqual([
        '[SL-1] sales-service.md §4',
        'requirement: r',
        'expected: status 201',
        'actual:   status 200',
        'request:  POST http://t/x {}',
        'response: 200 application/json {}',
        "reproduce: curl -sS -i -X POST 'http://t/x'   # set $AUTH_TOKEN first",
      ])
    },
  )
})
