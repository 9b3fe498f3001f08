import type { Exchange } from './recorder'

/** Headers curl computes itself, or that say nothing about what the target was asked. */
const LEFT_OUT = new Set([
  'host',
  'content-length',
  'connection',
  'accept-encoding',
  'user-agent',
  'transfer-encoding',
  'keep-alive',
])

/** A text inside single quotes for a POSIX shell. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * The shell variable a redacted value stands for: the bearer token, the password, else a secret named after its place.
 */
function variableFor(place: string): string {
  const p = place.toLowerCase()
  if (p === 'authorization' || p.includes('token')) return 'AUTH_TOKEN'
  if (p.includes('password')) return 'AUTH_PASSWORD'
  return `SECRET_${
    place
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
      .toUpperCase() || 'VALUE'
  }`
}

/**
 * A text with every redacted value replaced by a shell variable, single-quoted around them:
 * `{"password":"[REDACTED]"}` -> `'{"password":"'"$AUTH_PASSWORD"'"}'`. The value itself was never known here.
 */
function quotedWithVariables(text: string, defaultPlace: string): { text: string; variables: string[] } {
  const variables: string[] = []
  const parts = text.split(/(\[REDACTED(?:-JWT)?\])/)
  const out = parts.map((part, i) => {
    if (i % 2 === 0) return part === '' ? '' : quote(part)
    const key = /"([^"]+)"\s*:\s*"?$/.exec(parts[i - 1] ?? '')?.[1]
    const name = part === '[REDACTED-JWT]' ? 'AUTH_TOKEN' : variableFor(key ?? defaultPlace)
    variables.push(name)
    return `"$${name}"`
  })
  return { text: out.join('') || "''", variables }
}

/**
 * The exchange as a curl command a person can run by hand against the same target: method, URL, the headers that
 * matter, the body. Secrets appear as shell variables ($AUTH_TOKEN, $AUTH_PASSWORD, $SECRET_<PLACE>), never as
 * values: the exchange was redacted when it was recorded, and each redacted value becomes the variable that stands
 * for it. `variables` lists the ones to set first.
 */
export function curlOf(x: Pick<Exchange, 'method' | 'url' | 'request'>): { command: string; variables: string[] } {
  const args = ['curl', '-sS', '-i', '-X', x.method.toUpperCase(), quote(x.url)]
  const variables: string[] = []
  for (const [name, value] of Object.entries(x.request.headers ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (LEFT_OUT.has(name.toLowerCase())) continue
    const v = quotedWithVariables(`${name}: ${value}`, name)
    variables.push(...v.variables)
    args.push('-H', v.text)
  }
  if (x.request.body !== undefined && x.request.body !== '') {
    const v = quotedWithVariables(x.request.body, 'body')
    variables.push(...v.variables)
    args.push('--data-raw', v.text)
  }
  return { command: args.join(' '), variables: [...new Set(variables)] }
}

/** The "reproduce:" line of a failure message (helpers/checks/failure.ts). */
export function reproduceLine(x: Pick<Exchange, 'method' | 'url' | 'request'>): string {
  const c = curlOf(x)
  return `reproduce: ${c.command}${
    c.variables.length ? `   # set ${c.variables.map((v) => `$${v}`).join(', ')} first` : ''
  }`
}
