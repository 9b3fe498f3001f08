/** The nesting depth of a JSON text when it passes max (arrays and objects, strings skipped), else undefined. */
export function jsonDepthBeyond(text: string, max: number): number | undefined {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i += 1 // backslash: the next character is escaped
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      depth += 1
      if (depth > max) return depth
    } else if (c === 93 || c === 125) depth -= 1
  }
  return undefined
}
