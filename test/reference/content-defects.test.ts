import { describe, expect, it } from 'vitest'
import { DefectSet } from '../../reference/defects/catalogue'
import { notificationData } from '../../reference/webhooks/routes'
import { examplePayload } from '../../reference/webhooks/events'
import type { ReferenceContext } from '../../reference/context'

const ctx = (defects: string[], extraKeys = false) =>
  ({
    defects: new DefectSet(defects),
    options: { webhooks: { notificationExtraKeys: extraKeys } },
  }) as unknown as ReferenceContext

describe("the reference's notification data, faithful and with the content defects", () => {
  const example = examplePayload('extracted')
  it('faithful: the example as published', () => {
    expect(notificationData(ctx([]), example)).toEqual(example)
  })
  it('each defect changes one thing: a key, a type, a nesting level', () => {
    expect(Object.keys(notificationData(ctx(['webhooks-notification-key-renamed']), example))).toEqual([
      'document_id',
      'fields',
      'extracted_at',
    ])
    expect(notificationData(ctx(['webhooks-notification-number-as-string']), example)['fields']).toEqual({
      policyNo: 'P-0001',
      premium: '500',
    })
    expect(Object.keys(notificationData(ctx(['webhooks-notification-nesting-flattened']), example))).toEqual([
      'documentId',
      'fields.policyNo',
      'fields.premium',
      'extractedAt',
    ])
  })
  it('the extra-keys variation adds keys at every level and keeps the example', () => {
    const data = notificationData(ctx([], true), example)
    expect(data).toMatchObject({
      ...example,
      fields: { ...(example['fields'] as object), traceId: 'trace-7f3a' },
      traceId: 'trace-7f3a',
    })
  })
})
