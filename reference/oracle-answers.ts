import type { FastifyInstance } from 'fastify'
import { matchOperation } from '../common/operations'
import type { ReferenceContext } from './context'
import type { DefectName } from './defects/catalogue'

type Json = Record<string, unknown>
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const round2 = (n: number) => Math.round(n * 100) / 100

/** The object at a path of keys in an answer, or undefined when any step is not an object. */
function objAt(b: Json, ...keys: string[]): Json | undefined {
  let at: unknown = b
  for (const k of keys) at = isObj(at) ? at[k] : undefined
  return isObj(at) ? at : undefined
}

/** Another id of the same style: an integer one more, a numeric string one more, another last character otherwise. */
function otherId(v: unknown): unknown {
  if (typeof v === 'number') return v + 1
  if (typeof v === 'string' && /^\d+$/.test(v)) return String(Number(v) + 1)
  if (typeof v === 'string' && v.length > 0) return `${v.slice(0, -1)}${v.endsWith('0') ? '1' : '0'}`
  return v
}

function nextDay(iso: unknown): unknown {
  if (typeof iso !== 'string') return iso
  const t = Date.parse(`${iso.slice(0, 10)}T00:00:00Z`)
  return Number.isFinite(t) ? new Date(t + 86_400_000).toISOString().slice(0, 10) : iso
}

function otherSecret(secret: unknown): unknown {
  if (typeof secret === 'string') return otherId(secret)
  if (isObj(secret) && typeof secret['key'] === 'string') return { ...secret, key: otherId(secret['key']) }
  return secret
}

/** Operation id and status -> the change each oracle defect makes to that answer (a deep copy). */
const CHANGES: { defect: DefectName; answer: string; change: (body: Json) => void }[] = [
  {
    defect: 'oracle-create-echoes-other-name',
    answer: 'sales.quote.create 200',
    change: (b) =>
      isObj(b['customer']) &&
      typeof b['customer']['name'] === 'string' &&
      (b['customer']['name'] = `${b['customer']['name']} Jr`),
  },
  {
    defect: 'oracle-calculate-other-sales-channel',
    answer: 'sales.quote.calculate 200',
    change: (b) => {
      const p = objAt(b, 'data', 'policy')
      if (p && typeof p['salesChannel'] === 'string')
        p['salesChannel'] = p['salesChannel'] === 'broker' ? 'direct' : 'broker'
    },
  },
  {
    defect: 'oracle-payment-other-reference',
    answer: 'sales.payments.insert 201',
    change: (b) => isObj(b['data']) && (b['data']['reference'] = `${String(b['data']['reference'] ?? '')}-2`),
  },
  {
    defect: 'oracle-allocate-other-payment',
    answer: 'sales.payments.allocate 200',
    change: (b) => isObj(b['data']) && (b['data']['paymentId'] = otherId(b['data']['paymentId'])),
  },
  {
    defect: 'oracle-termination-quote-other-date',
    answer: 'sales.termination.premiums 200',
    change: (b) => isObj(b['data']) && (b['data']['terminationDate'] = nextDay(b['data']['terminationDate'])),
  },
  {
    defect: 'oracle-update-answers-other-id',
    answer: 'sales.quote.update 200',
    change: (b) => isObj(b['policy']) && (b['policy']['id'] = otherId(b['policy']['id'])),
  },
  {
    defect: 'oracle-credit-other-payment',
    answer: 'sales.invoice.credit 200',
    change: (b) => isObj(b['data']) && (b['data']['paymentId'] = otherId(b['data']['paymentId'])),
  },
  {
    defect: 'oracle-quote-broker-comm-off',
    answer: 'sales.quote.get 200',
    change: (b) => {
      const f = objAt(b, 'data', 'policy', 'financials')
      if (f && typeof f['brokerComm'] === 'number') f['brokerComm'] = round2(f['brokerComm'] + 0.01)
    },
  },
  {
    defect: 'oracle-links-broker-comm-off',
    answer: 'sales.policy.links 200',
    change: (b) => {
      const f = objAt(b, 'data', 'policy', 'financials')
      if (f && typeof f['brokerComm'] === 'number') f['brokerComm'] = round2(f['brokerComm'] + 0.01)
    },
  },
  {
    defect: 'oracle-calculate-total-off',
    answer: 'sales.quote.calculate 200',
    change: (b) => {
      const f = objAt(b, 'data', 'policy', 'financials')
      if (f && typeof f['total'] === 'number') f['total'] = round2(f['total'] + 1)
    },
  },
  {
    defect: 'oracle-calculation-other-commission-pct',
    answer: 'sales.quote.calculation 200',
    change: (b) => {
      const f = objAt(b, 'data')
      if (!f || typeof f['brokerCommPct'] !== 'number' || typeof f['periodPremium'] !== 'number') return
      f['brokerCommPct'] = f['brokerCommPct'] + 1
      f['brokerComm'] = round2((f['periodPremium'] * (f['brokerCommPct'] as number)) / 100)
    },
  },
  {
    defect: 'oracle-renewal-other-frequency',
    answer: 'sales.policy.renewal 200',
    change: (b) => {
      // a field every policy holds (the product schemas require it), so the defect bites whatever data the run sent
      const p = objAt(b, 'data', 'policy')
      if (p && typeof p['paymentFrequency'] === 'string')
        p['paymentFrequency'] = p['paymentFrequency'] === 'monthly' ? 'annual' : 'monthly'
    },
  },
  {
    defect: 'oracle-links-quotes-other',
    answer: 'sales.policy.links 200',
    change: (b) => {
      const l = objAt(b, 'links')
      if (l && Array.isArray(l['quotes'])) l['quotes'] = l['quotes'].map(otherId)
    },
  },
  {
    defect: 'oracle-get-subscription-other-id',
    answer: 'webhooks.subscription.get 200',
    change: (b) => 'id' in b && (b['id'] = otherId(b['id'])),
  },
  {
    defect: 'oracle-links-status-disagrees',
    answer: 'sales.policy.links 200',
    change: (b) => {
      const p = objAt(b, 'data', 'policy')
      if (p && p['status'] === 'active') p['status'] = 'lapsed'
    },
  },
  {
    defect: 'oracle-update-other-secret',
    answer: 'webhooks.subscription.update 200',
    change: (b) => 'secret' in b && (b['secret'] = otherSecret(b['secret'])),
  },
]

/** List answers (a top-level array) and the change to each of their items. */
const ITEM_CHANGES: { defect: DefectName; answer: string; change: (item: Json) => void }[] = [
  {
    defect: 'oracle-list-other-secret',
    answer: 'webhooks.subscriptions.list 200',
    change: (s) => 'secret' in s && (s['secret'] = otherSecret(s['secret'])),
  },
]

/**
 * The oracle's defects (reference/defects/oracle.ts): one preSerialization hook that changes the answer of one
 * operation as a service with that bug would, leaving what the service stored as it is. Registered only when one of
 * them is switched on.
 */
export function registerOracleDefects(app: FastifyInstance, ctx: ReferenceContext): void {
  const on = CHANGES.filter((c) => ctx.defects.has(c.defect))
  const onItems = ITEM_CHANGES.filter((c) => ctx.defects.has(c.defect))
  if (on.length === 0 && onItems.length === 0) return
  app.addHook('preSerialization', async (req, reply, payload) => {
    const path = req.url.split('?')[0] ?? ''
    const op = matchOperation(req.method, path) ?? matchOperation(req.method, path.replace(/\/+$/, ''))
    if (!op) return payload
    const answer = `${op.id} ${reply.statusCode}`
    if (Array.isArray(payload)) {
      const changes = onItems.filter((c) => c.answer === answer)
      if (changes.length === 0) return payload
      const copy = structuredClone(payload) as unknown[]
      for (const item of copy) if (isObj(item)) for (const c of changes) c.change(item)
      return copy
    }
    const changes = on.filter((c) => c.answer === answer)
    if (changes.length === 0 || !isObj(payload)) return payload
    const copy = structuredClone(payload)
    for (const c of changes) c.change(copy)
    return copy
  })
}
