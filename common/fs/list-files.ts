import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Every file under `dir` (recursively) whose name ends with `suffix`. */
export function listFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return listFiles(p, suffix)
    return name.endsWith(suffix) ? [p] : []
  })
}
