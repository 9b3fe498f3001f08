import type { ReferenceContext } from '../context'

/**
 * How quote data written by a caller is stored: as sent, unless a defect of the real-world data class (issue 29) or the
 * unicode-nfc variation applies. Applied to the create body and to each update's patch (never twice to one value).
 */
export function storedForm<T>(data: T, ctx: ReferenceContext): T {
  const d = ctx.defects
  const nfc = ctx.options.unicodeNormalisation === 'NFC'
  const active =
    nfc ||
    [
      'sales-text-mojibake',
      'sales-text-nfd',
      'sales-emoji-stripped',
      'sales-long-text-truncated',
      'sales-cents-truncated',
      'sales-amounts-float32',
      'sales-leap-day-rolled',
    ].some((n) => d.has(n as never))
  if (!active) return data
  const text = (s: string): string => {
    let out = nfc ? s.normalize('NFC') : s
    if (d.has('sales-text-mojibake')) out = Buffer.from(out, 'utf8').toString('latin1')
    if (d.has('sales-text-nfd')) out = out.normalize('NFD')
    if (d.has('sales-emoji-stripped')) out = out.replace(/[\u{10000}-\u{10FFFF}]/gu, '')
    if (d.has('sales-long-text-truncated')) out = [...out].slice(0, 100).join('')
    const leap = /^(\d{4})-02-29$/.exec(out)
    if (leap && d.has('sales-leap-day-rolled')) out = `${leap[1]}-03-01`
    return out
  }
  const number = (n: number): number => {
    if (Number.isInteger(n)) return n
    if (d.has('sales-cents-truncated')) return Math.trunc(n)
    if (d.has('sales-amounts-float32')) return Math.fround(n)
    return n
  }
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v)
    if (typeof v === 'number') return number(v)
    if (Array.isArray(v)) return v.map(walk)
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(data) as T
}
