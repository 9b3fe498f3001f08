/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between two short strings. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
    }
  }
  return d[a.length]![b.length]!
}

/** The known word nearest to `word` (at most a third of its letters off, at least one), or undefined. */
export function nearest(word: string, known: readonly string[]): string | undefined {
  let best: { w: string; d: number } | undefined
  for (const w of known) {
    const d = distance(word.toLowerCase(), w.toLowerCase())
    if (!best || d < best.d) best = { w, d }
  }
  return best && best.d <= Math.max(1, Math.floor(word.length / 3)) ? best.w : undefined
}

/**
 * node:util parseArgs' "Unknown option '--chek'" message with the option meant, when one is near:
 * "Unknown option '--chek'. Did you mean --check?". Other messages are returned as they are.
 */
export function withDidYouMean(message: string, options: Record<string, unknown>): string {
  const m = /Unknown option '--([^'=]+)/.exec(message)
  if (!m) return message
  const near = nearest(m[1]!, Object.keys(options))
  const first = message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '')
  return near ? `${first}. Did you mean --${near}?` : first
}
