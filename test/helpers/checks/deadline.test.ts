import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withDeadline } from '../../../helpers/checks/check'
import { Dispatchers } from '../../../helpers/client/http/dispatchers'
import { send } from '../../../helpers/client/http/send'
import { startTestServer, type TestServer } from '../../support/http-server'

let server: TestServer
const dispatchers = new Dispatchers({
  connectTimeoutMs: 1000,
  headersTimeoutMs: 60_000,
  bodyTimeoutMs: 60_000,
  exchangeDeadlineMs: 50_000,
})

beforeAll(async () => {
  server = await startTestServer(() => {
    // never answers
  })
})
afterAll(async () => {
  await dispatchers.close()
  await server.close()
})

describe('a check that does not finish', () => {
  it(
    "fails before vitest's timeout, naming the request in flight and how long it has waited, and aborts " + 'it',
    async () => {
      let sendOutcome: unknown
      const e = await withDeadline(1500, async () => {
        sendOutcome = await send(dispatchers, { method: 'GET', url: `${server.url}/api/v1/ledger/quotes/42` }).catch(
          (err: unknown) => err,
        )
      }).then(
        () => undefined,
        (err: unknown) => err as Error,
      )
      expect(e?.message).toMatch(
        new RegExp(
          `^the check did not finish within 1350 ms; in flight: ` +
            `GET ${server.url}/api/v1/ledger/quotes/42( \\([a-z.]+\\))?, in flight for 1\\d{3} ms$`,
        ),
      )
      await new Promise((r) => setTimeout(r, 50))
      expect((sendOutcome as { code?: string }).code).toBe('LC_ABORTED')
    },
  )
})
