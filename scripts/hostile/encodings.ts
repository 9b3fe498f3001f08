/**
 * The encodings a hostile or careless target echoes a secret in (issue #31, item 3), written here independently of
 * the redactor's own list (helpers/client/evidence/redact.ts): the unit test of the redactor and the hostile bed's
 * canaries
 * both use them, so a spelling the redactor forgets shows as a leak.
 */
const hex2 = (n: number) => n.toString(16).padStart(2, '0')

export interface LeakForm {
  name: string
  text: string
}

/** Mixed case: every other letter upper-cased. */
function mixedCase(s: string): string {
  return [...s].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('')
}

/** Every form of the secret as a whole (a base64 form at an offset is in base64Contexts). */
export function leakForms(secret: string): LeakForm[] {
  const bytes = Buffer.from(secret, 'utf8')
  const fullPct = [...bytes].map((b) => `%${hex2(b).toUpperCase()}`).join('')
  const uEsc = Array.from(
    { length: secret.length },
    (_, i) => `\\u${secret.charCodeAt(i).toString(16).padStart(4, '0')}`,
  ).join('')
  const forms: LeakForm[] = [
    { name: 'plain', text: secret },
    { name: 'upper-cased', text: secret.toUpperCase() },
    { name: 'lower-cased', text: secret.toLowerCase() },
    { name: 'mixed case', text: mixedCase(secret) },
    { name: 'reversed', text: [...secret].reverse().join('') },
    { name: 'space-separated', text: [...secret].join(' ') },
    { name: 'URL component', text: encodeURIComponent(secret) },
    { name: 'form', text: new URLSearchParams({ p: secret }).toString().slice(2) },
    { name: 'full %-encoding', text: fullPct },
    { name: 'full %-encoding, lower case', text: fullPct.toLowerCase() },
    { name: 'double %-encoding', text: encodeURIComponent(encodeURIComponent(secret)) },
    { name: 'double full %-encoding', text: encodeURIComponent(fullPct) },
    { name: 'hex', text: bytes.toString('hex') },
    { name: 'HEX', text: bytes.toString('hex').toUpperCase() },
    { name: 'JSON string', text: JSON.stringify(secret).slice(1, -1) },
    { name: 'JSON in JSON', text: JSON.stringify(JSON.stringify(secret)).slice(2, -2) },
    { name: 'JSON \\u escapes', text: uEsc },
    { name: 'JSON \\U escapes (upper hex)', text: uEsc.replace(/[0-9a-f]{4}/g, (h) => h.toUpperCase()) },
    { name: 'JavaScript \\x escapes', text: [...secret].map((c) => `\\x${hex2(c.charCodeAt(0))}`).join('') },
    {
      name: 'JavaScript \\u{} escapes',
      text: [...secret].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join(''),
    },
    {
      name: 'HTML named entities',
      text: secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
    },
    { name: 'HTML decimal entities', text: [...secret].map((c) => `&#${c.codePointAt(0)};`).join('') },
    { name: 'HTML hex entities', text: [...secret].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('') },
    { name: 'base64', text: bytes.toString('base64') },
    { name: 'base64url', text: bytes.toString('base64url') },
  ]
  return forms
}

export interface Base64Context {
  name: string
  /** The whole encoded text: prefix, secret and suffix bytes together (MIME-wrapped: with its line breaks). */
  text: string
  /**
   * Characters at the start that encode the prefix only (anything past them tells something of the secret); in the text
   * without its line breaks.
   */
  prefixChars: number
  /** Index of the first character that encodes the suffix only (in the text without its line breaks). */
  suffixFrom: number
}

/** The secret inside longer base64/base64url texts at all three alignments, at the end or followed by more (Basic). */
export function base64Contexts(secret: string): Base64Context[] {
  const out: Base64Context[] = []
  for (const prefix of ['', 'u:', 'us:', 'usr:']) {
    for (const suffix of ['', '!', '#~']) {
      for (const url of [false, true]) {
        const p = Buffer.from(prefix)
        const all = Buffer.concat([p, Buffer.from(secret), Buffer.from(suffix)])
        const n = Buffer.byteLength(secret)
        out.push({
          name: `${url ? 'base64url' : 'base64'} of ${JSON.stringify(prefix)} + secret + ${JSON.stringify(suffix)}`,
          text: all.toString(url ? 'base64url' : 'base64'),
          prefixChars: Math.floor((8 * p.length) / 6),
          suffixFrom: Math.ceil((8 * (p.length + n)) / 6),
        })
      }
    }
  }
  return out
}

/**
 * Canaries to look for in files and on the console: every whole form, and for base64 (MIME-wrapped too) the run of
 * characters that encodes the secret's bytes only at each alignment; look for them in a text with its line breaks
 * taken out as well (withoutLineBreaks), or a MIME-wrapped leak goes unseen.
 */
export function canariesOf(secret: string): string[] {
  const out = new Set(leakForms(secret).map((f) => f.text))
  for (const c of [...base64Contexts(secret), ...mimeContexts(secret)]) {
    const inner = withoutLineBreaks(c.text).slice(c.prefixChars + 1, c.suffixFrom - 1)
    if (inner.length >= 8) out.add(inner)
  }
  return [...out]
}

/** A base64 text cut into lines of `width` characters (RFC 2045 §6.8: 76), joined with `eol`. */
export function mimeWrap(base64: string, width = 76, eol = '\r\n'): string {
  const lines: string[] = []
  for (let i = 0; i < base64.length; i += width) lines.push(base64.slice(i, i + width))
  return lines.join(eol)
}

/**
 * The secret inside a MIME-wrapped base64 text (a mail body, a PEM-like block): lines of 76 characters (and of 64 and
 * 16, PEM's and a narrow one), CRLF or LF, with the secret placed so that a line break falls inside its encoding at
 * each of the three alignments (the filler before it is 45, 46 or 47 bytes: the secret starts at character 60-63 of
 * the first 76-character line).
 */
export function mimeContexts(secret: string): Base64Context[] {
  const out: Base64Context[] = []
  for (const fill of [45, 46, 47]) {
    for (const [width, eol] of [
      [76, '\r\n'],
      [76, '\n'],
      [64, '\n'],
      [16, '\r\n'],
    ] as const) {
      const prefix = Buffer.alloc(fill, 0x41)
      const all = Buffer.concat([prefix, Buffer.from(secret), Buffer.from('!~')])
      const n = Buffer.byteLength(secret)
      out.push({
        name:
          `MIME base64 (${width} characters a line, ${eol === '\r\n' ? 'CRLF' : 'LF'}) of ${fill} bytes + secret ` +
          `+ "!~"`,
        text: mimeWrap(all.toString('base64'), width, eol),
        prefixChars: Math.floor((8 * fill) / 6),
        suffixFrom: Math.ceil((8 * (fill + n)) / 6),
      })
    }
  }
  return out
}

/**
 * A text as it would read with every line break taken out, raw, escaped (JSON, JSON in JSON) or as an XML character
 * reference: where a canary of base64 cut by MIME wrapping shows again.
 */
export function withoutLineBreaks(text: string): string {
  return text.replace(/(?:\r|\n|\\+r|\\+n|&#1[03];|&#x[da];)+/gi, '')
}
