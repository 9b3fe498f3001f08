import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { withoutLineBreaks } from '../../scripts/hostile/encodings'

/** Every file a run wrote, recursively. */
export function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? filesOf(p) : [p]
  })
}

/**
 * "file: canary" for every canary found in any file of the folder or in the console output, as written or with its
 * line breaks taken out (base64 that a target MIME-wrapped, cut across lines).
 */
export function canaryHits(dir: string, output: string, canaries: Iterable<string>): string[] {
  const list = [...canaries].filter((c) => c.length >= 8)
  const hits: string[] = []
  const scan = (where: string, text: string) => {
    const joined = withoutLineBreaks(text)
    for (const c of list)
      if (text.includes(c)) hits.push(`${where}: …${c.slice(0, 6)}…`)
      else if (joined.includes(c)) hits.push(`${where} (across a line break): …${c.slice(0, 6)}…`)
  }
  for (const f of filesOf(dir)) scan(relative(dir, f), readFileSync(f, 'latin1') + readFileSync(f, 'utf8'))
  scan('console', output)
  return hits
}

const RAW_CONTROL =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

/** "file: U+XXXX" for every text file of the folder (and the console) holding a raw C0/C1/bidi control character. */
export function controlHits(dir: string, output: string): string[] {
  const hits: string[] = []
  const scan = (where: string, text: string) => {
    const m = RAW_CONTROL.exec(text)
    if (m) hits.push(`${where}: U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}`)
  }
  for (const f of filesOf(dir))
    if (/\.(json|jsonl|xml|md|html|txt|properties)$/.test(f)) scan(relative(dir, f), readFileSync(f, 'utf8'))
  scan('console', output)
  return hits
}

/** Markdown or HTML a target sent, live in a Markdown or HTML report (a job summary renders conformance.md). */
export function markupHits(dir: string): string[] {
  return filesOf(dir)
    .filter((f) => /\.(md|html)$/.test(f))
    .filter((f) => (f.endsWith('.md') ? /<img|\]\(http:\/\/evil/ : /<img/).test(readFileSync(f, 'utf8')))
    .map((f) => relative(dir, f))
}
