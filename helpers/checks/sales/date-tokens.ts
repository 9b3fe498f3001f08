/**
 * Relative dates in payload overrides: "@today", "@today+1d", "@today+1y", "@today+1y-1d" (UTC, YYYY-MM-DD).
 * Other values are returned unchanged.
 */
export function resolveDateToken(value: unknown, now: Date): unknown {
  if (typeof value !== 'string' || !value.startsWith('@today')) return value
  const rest = value.slice('@today'.length)
  if (!/^([+-]\d+[dmy])*$/.test(rest)) throw new Error(`bad date token '${value}' (e.g. @today+1y-1d)`)
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  for (const m of rest.matchAll(/([+-]\d+)([dmy])/g)) {
    const n = Number(m[1])
    if (m[2] === 'd') d.setUTCDate(d.getUTCDate() + n)
    else if (m[2] === 'm') d.setUTCMonth(d.getUTCMonth() + n)
    else d.setUTCFullYear(d.getUTCFullYear() + n)
  }
  return d.toISOString().slice(0, 10)
}
