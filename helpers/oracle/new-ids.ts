import { createHash } from 'node:crypto'
import { appendFileSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The ids a target answered as new in this run (payments, events, subscriptions), as `tenant|kind|id` keys: a new id
 * is none of them (PL-INV-021, WH-INV-020). One per target scope and worker, shared by every suite file of the worker
 * (modules are shared between them: isolate false); with a file, shared by the run's workers too (a multi-target run
 * spreads a target's files over several): each worker appends what it was given and reads what the others appended
 * when it judges. An id another worker was given at the same moment may not be read yet: never a wrong finding, at
 * worst one not made.
 */
export class NewIds {
  private readonly known = new Set<string>()
  /** How far the file was read (bytes). */
  private readUpTo = 0

  constructor(private readonly file?: string) {}

  /** True when the run was answered this key as new before (by this worker or, through the file, another). */
  has(key: string): boolean {
    if (this.known.has(key)) return true
    this.readOthers()
    return this.known.has(key)
  }

  add(key: string): void {
    if (this.known.has(key)) return
    this.known.add(key)
    if (this.file === undefined) return
    try {
      appendFileSync(this.file, `${key}\n`)
    } catch {
      // the run's folder is gone or not writable: the ids stay this worker's
    }
  }

  private readOthers(): void {
    if (this.file === undefined) return
    try {
      if (statSync(this.file).size <= this.readUpTo) return
      const text = readFileSync(this.file)
      // only whole lines: a line another worker is writing is read next time
      const end = text.lastIndexOf(0x0a) + 1
      if (end <= this.readUpTo) return
      for (const line of text.subarray(this.readUpTo, end).toString('utf8').split('\n')) if (line) this.known.add(line)
      this.readUpTo = end
    } catch {
      // no file yet: nothing another worker was given
    }
  }
}

/** One NewIds per target in this worker: every suite file's model of the same target shares it. */
const BY_TARGET = new Map<string, NewIds>()

/**
 * The run's NewIds of a target (its key: run id and services), shared through a file in `dir` (the run's traffic
 * folder) named by this vitest process and the key's hash: a later run with the same run id starts afresh.
 */
export function newIdsOf(targetKey: string, dir: string): NewIds {
  let ids = BY_TARGET.get(targetKey)
  if (!ids) {
    const hash = createHash('sha256').update(targetKey).digest('hex').slice(0, 12)
    BY_TARGET.set(targetKey, (ids = new NewIds(join(dir, `new-ids-${process.pid}-${hash}.ids`))))
  }
  return ids
}
