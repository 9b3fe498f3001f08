import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Every file a run wrote, recursively. */
export function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? filesOf(p) : [p]
  })
}

/** "file: canary" for every canary found in any file of the folder or in the console output. */
export function canaryHits(dir: string, output: string, canaries: Iterable<string>): string[] {
  const list = [...canaries].filter((c) => c.length >= 8)
  const hits: string[] = []
  const scan = (where: string, text: string) => {
    for (const c of list) if (text.includes(c)) hits.push(`${where}: …${c.slice(0, 6)}…`)
  }
  for (const f of filesOf(dir)) scan(relative(dir, f), readFileSync(f, 'latin1') + readFileSync(f, 'utf8'))
  scan('console', output)
  return hits
}
