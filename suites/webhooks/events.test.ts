import { describe } from 'vitest'
import { check } from '../../helpers/checks/check'
import { expectJsonBody, expectStatus, expectThat } from '../../helpers/checks/expect'
import type { HttpResult } from '../../helpers/client/http/types'
import { useTarget } from '../../helpers/checks/context'

const t = useTarget()
const TYPES = ['extracted', 'export', 'validation-success']

async function events(): Promise<{ res: HttpResult; list: Record<string, unknown>[] }> {
  const res = await t.webhooks.call({ op: 'webhooks.events.list' })
  expectStatus(res, 200)
  const body = expectJsonBody(res)
  expectThat(Array.isArray(body), { expected: 'a JSON array of event info', actual: body, res })
  return { res, list: body as Record<string, unknown>[] }
}

describe('webhooks: event types (webhook-subscriptions.md §2, §6)', () => {
  check(
    {
      id: 'WH-EVT-001',
      spec: 'webhooks',
      section: '§6',
      requirement:
        'GET /api/webhook/events lists exactly the event types extracted, export and validation-success, each once.',
    },
    async () => {
      const { res, list } = await events()
      const types = list.map((e) => e?.eventType)
      const sorted = [...types].map(String).sort()
      expectThat(types.length === TYPES.length && sorted.join('|') === [...TYPES].sort().join('|'), {
        expected: `eventType values exactly ${TYPES.join(', ')}`,
        actual: types,
        res,
      })
    },
  )

  check(
    {
      id: 'WH-EVT-002',
      spec: 'webhooks',
      section: '§6',
      requirement: 'Every event type is listed with a non-empty human-readable description.',
    },
    async () => {
      const { res, list } = await events()
      const bad = list
        .filter((e) => typeof e?.description !== 'string' || e.description.trim() === '')
        .map((e) => e?.eventType)
      expectThat(list.length > 0 && bad.length === 0, {
        expected: 'a non-empty string description on every event type',
        actual: list.length === 0 ? 'no event types' : `no usable description on ${JSON.stringify(bad)}`,
        res,
      })
    },
  )

  check(
    {
      id: 'WH-EVT-003',
      spec: 'webhooks',
      section: '§2',
      requirement: 'Every event type is listed with an example payload that is a JSON object.',
    },
    async () => {
      const { res, list } = await events()
      const bad = list.filter(
        (e) => e?.examplePayload === null || typeof e?.examplePayload !== 'object' || Array.isArray(e.examplePayload),
      )
      expectThat(list.length > 0 && bad.length === 0, {
        expected: 'examplePayload an object on every event type',
        actual:
          list.length === 0
            ? 'no event types'
            : bad
                .map(
                  (e) =>
                    `${String(e?.eventType)}: ${e?.examplePayload === null ? 'null' : Array.isArray(e?.examplePayload) ? 'array' : typeof e?.examplePayload}`,
                )
                .join(', '),
        res,
      })
    },
  )
})
