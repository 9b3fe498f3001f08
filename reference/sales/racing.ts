import type { ReferenceContext } from '../context'
import { raceWithPartner } from '../defects/concurrency'
import { quoteDocument } from './access'
import type { Ledger } from './ledger'
import { mergeQuoteData } from './merge'
import type { QuoteRecord } from './records'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A patch split into one patch per leaf (objects walked; arrays and primitives are leaves). */
function leafPatches(patch: Json): Json[] {
  const out: Json[] = []
  const walk = (v: Json, wrap: (x: Json) => Json) => {
    for (const [k, x] of Object.entries(v)) {
      if (isObject(x) && Object.keys(x).length > 0) walk(x, (inner) => wrap({ [k]: inner }))
      else out.push(wrap({ [k]: x }))
    }
  }
  walk(patch, (x) => x)
  return out
}

/**
 * The concurrency-torn-update defect: the update written one field at a time with a wait before each, and a writer
 * that finds another writer of the quote in flight writes its fields in the reverse order. Alone it is a correct
 * update; two at once leave one field of each.
 */
export async function tornWrite(
  ledger: Ledger,
  ctx: ReferenceContext,
  quote: QuoteRecord,
  patch: Json,
): Promise<Record<string, unknown>> {
  const q = quote as QuoteRecord & { tornWriters?: number }
  const others = q.tornWriters ?? 0
  q.tornWriters = others + 1
  const fields = leafPatches(patch)
  try {
    // the writers meet (the first waits for the second), then write a field each in turn
    await raceWithPartner(q)
    for (const field of others > 0 ? fields.reverse() : fields) {
      quote.data = mergeQuoteData(quote.data, field, () => ledger.id())
      await new Promise((resolve) => setImmediate(resolve))
    }
  } finally {
    q.tornWriters -= 1
  }
  quote.version += 1
  delete quote.financials
  delete quote.installments
  if (quote.state !== 'draft') ledger.setState(quote, 'draft', 'data changed')
  ledger.lock(quote, ctx.options.lockMs, 'update')
  return quoteDocument(quote, ctx.ids)
}
