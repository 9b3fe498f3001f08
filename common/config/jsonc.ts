/** Parses JSON with // and /* *\/ comments (JSONC). Strings are respected. */
export function stripJsonComments(text: string): string {
  let out = ''
  let i = 0
  let inString = false
  while (i < text.length) {
    const ch = text[i]!
    const next = text[i + 1]
    if (inString) {
      out += ch
      if (ch === '\\') {
        out += next ?? ''
        i += 2
        continue
      }
      if (ch === '"') inString = false
      i += 1
      continue
    }
    if (ch === '"') {
      inString = true
      out += ch
      i += 1
    } else if (ch === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i += 1
    } else if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end === -1 ? text.length : end + 2
      // keep line breaks so that parse errors point at the right line
      out += text.slice(i, stop).replace(/[^\n]/g, ' ')
      i = stop
    } else {
      out += ch
      i += 1
    }
  }
  return out
}

export function parseJsonc(text: string): unknown {
  return JSON.parse(stripJsonComments(text))
}
