import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'

/**
 * A folder whose files are replaced at each run (allure-results) keeps the previous run's files as spares, and the new
 * files are written over them, instead of deleting the old files and creating new ones.
 *
 * Why: on ext4 without a journal (the 2-core CI machines), the kernel skips every inode freed in the last one to five
 * minutes when it allocates a new one, and it checks them one at a time (fs/ext4/ialloc.c, recently_deleted()).
 * Deleting the previous run's N files and then creating N new ones costs N²/2 of those checks: about 2 s of system
 * time for the 3 800 Allure files of 4 tenants (docs/reliability.md#speed). Renaming a spare to the new name and
 * overwriting it allocates no inode. Elsewhere it costs one rename per file.
 */

/** The spares' folder of `dir`: a hidden sibling (`reports/.allure-results-spare`), on the same file system. */
export function spareDirOf(dir: string): string {
  return join(dirname(dir), `.${basename(dir)}-spare`)
}

/**
 * Empties `dir` for a new run: the folder itself becomes the spares' folder (one rename, whatever it holds) and a new,
 * empty `dir` is made. Spares an interrupted run left are deleted first.
 */
export function retireFiles(dir: string): void {
  const spares = spareDirOf(dir)
  rmSync(spares, { recursive: true, force: true })
  try {
    renameSync(dir, spares)
  } catch (e) {
    // ENOENT: no earlier run. Anything else (the folder is a mount point, say): empty it the plain way
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true })
    }
  }
  mkdirSync(dir, { recursive: true })
}

/** Deletes the spares nobody took (the run wrote fewer files than the one before). */
export function purgeSpares(dir: string): void {
  rmSync(spareDirOf(dir), { recursive: true, force: true })
}

/**
 * Writes files into one folder over the spares of its earlier run. One per thread: each lists the spares once and
 * starts at its own place in the list; a spare another thread took first is skipped.
 */
export class FileRecycler {
  private readonly spareDir: string
  private spares: string[] | undefined
  private next = 0
  private left = 0

  constructor(
    private readonly dir: string,
    /** Where in the list of spares this writer starts, as a fraction in [0, 1). */
    private readonly startAt = 0,
  ) {
    this.spareDir = spareDirOf(dir)
  }

  /**
   * Writes `data` to `name` in the folder, in a spare's inode when one is left. A spare is written over in place and
   * then cut to the new length, not emptied first: emptying frees its blocks (a discard on this machine's disk) only
   * to allocate them again, which costs more than the write.
   */
  write(name: string, data: string | NodeJS.ArrayBufferView): string {
    const path = join(this.dir, name)
    const bytes = typeof data === 'string' ? Buffer.from(data) : data
    if (!ArrayBuffer.isView(bytes)) throw new TypeError(`FileRecycler.write(${name}): expected a string or bytes`)
    if (this.takeSpare(path)) {
      try {
        overwrite(path, bytes)
        return path
      } catch {
        // not a file after all (something else was left among the spares): never keep it under the new name
        rmSync(path, { recursive: true, force: true })
      }
    }
    writeFileSync(path, bytes)
    return path
  }

  private takeSpare(path: string): boolean {
    if (this.spares === undefined) {
      try {
        this.spares = readdirSync(this.spareDir)
      } catch {
        this.spares = []
      }
      this.next = Math.floor(this.spares.length * Math.min(Math.max(this.startAt, 0), 0.999))
      this.left = this.spares.length
    }
    // each spare is tried once, in a circle from this writer's starting place
    while (this.left > 0) {
      const spare = this.spares[this.next]!
      this.next = (this.next + 1) % this.spares.length
      this.left -= 1
      try {
        renameSync(join(this.spareDir, spare), path)
        return true
      } catch {
        // taken by another thread, or the spares are gone: try the next one
      }
    }
    return false
  }
}

/** Writes `bytes` over the start of the file at `path`, then cuts the file to their length. */
function overwrite(path: string, bytes: NodeJS.ArrayBufferView): void {
  const fd = openSync(path, 'r+')
  try {
    let done = 0
    while (done < bytes.byteLength) done += writeSync(fd, bytes, done)
    ftruncateSync(fd, bytes.byteLength)
  } finally {
    closeSync(fd)
  }
}
