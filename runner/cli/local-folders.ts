import { accessSync, constants, statSync } from 'node:fs'
import { dirname, resolve, sep } from 'node:path'
import { INSTALLED, userCacheDir } from '../../common/project-root'

/**
 * The local machine's faults, blamed on it (issue #37, item 4): a folder the command must write (the reports folder,
 * the cache folder, the working folder) that is read-only, on a read-only file system, or not a folder. Each is a
 * usage or configuration error (exit 2) said in one line naming the folder and what to change, never a Node stack
 * trace and never exit 1 (DOES NOT CONFORM is the target's verdict, not the machine's).
 */

/** A folder the command writes, what it is and how the user changes it. */
export interface LocalFolder {
  path: string
  what: string
  change: string
}

/** The error codes of a file system that refuses a write (or a path whose parent is a file). */
const REFUSED = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'ENOSPC', 'EDQUOT', 'EISDIR'])

const REASON: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file is in the way of a folder',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'a folder is in the way of a file',
}

/** The folders a command writes: the reports folder, the cache folder of an installed package, the working folder. */
export function localFolders(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  installed = INSTALLED,
): LocalFolder[] {
  let reports: string | undefined
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i]!
    if (a === '--') break
    if (a === '--reports') reports = argv[i + 1]
    else if (a.startsWith('--reports=')) reports = a.slice('--reports='.length)
  }
  const out: LocalFolder[] = [
    {
      path: resolve(cwd, reports ?? env.REPORTS_DIR ?? 'reports'),
      what: 'the reports folder',
      change:
        reports !== undefined
          ? 'give --reports a folder you can write'
          : env.REPORTS_DIR
            ? 'set REPORTS_DIR (or --reports) to a folder you can write'
            : 'run from a folder you can write, or give --reports DIR (or REPORTS_DIR)',
    },
  ]
  if (installed)
    out.push({
      path: userCacheDir(env),
      what: 'the cache folder',
      change: env.LEDGER_CONFORMANCE_CACHE
        ? 'set LEDGER_CONFORMANCE_CACHE to a folder you can write'
        : 'set LEDGER_CONFORMANCE_CACHE (or XDG_CACHE_HOME) to a folder you can write',
    })
  out.push({
    path: resolve(cwd),
    what: 'the working folder',
    change: 'run from a folder you can write, or give --reports DIR (or REPORTS_DIR)',
  })
  return out
}

/**
 * Why `dir` cannot be written, or undefined when it can (or will be created in a folder that can): checked on the
 * folder or its nearest existing parent, without writing anything.
 */
export function unwritable(dir: string): { code: string; path: string } | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    let isDir: boolean
    try {
      isDir = statSync(d).isDirectory()
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT' && dirname(d) !== d) continue
      return { code: code ?? 'EACCES', path: d }
    }
    if (!isDir) return { code: d === resolve(dir) ? 'EEXIST' : 'ENOTDIR', path: d }
    try {
      accessSync(d, constants.W_OK | constants.X_OK)
      return undefined
    } catch (e) {
      return { code: (e as NodeJS.ErrnoException).code ?? 'EACCES', path: d }
    }
  }
}

/** The one line for a folder that cannot be written. */
export function folderLine(folder: LocalFolder, fault: { code: string; path: string }): string {
  const at = fault.path === folder.path ? '' : ` (at ${fault.path})`
  return `ledger-conformance: cannot write ${folder.what} ${folder.path}${at}: ${REASON[fault.code] ?? fault.code} (${fault.code}); ${folder.change}. Nothing was sent to the target.`
}

/** The first folder of the list that cannot be written, as its one line; undefined when all can. */
export function unwritableFolderLine(folders: readonly LocalFolder[]): string | undefined {
  for (const f of folders) {
    const fault = unwritable(f.path)
    if (fault) return folderLine(f, fault)
  }
  return undefined
}

/**
 * The one line for an error of the local file system thrown while a command ran (a write refused in one of its
 * folders, or anywhere), or undefined for any other error.
 */
export function localFaultLine(e: unknown, folders: readonly LocalFolder[]): string | undefined {
  const err = e as NodeJS.ErrnoException | undefined
  if (
    !err ||
    typeof err !== 'object' ||
    typeof err.code !== 'string' ||
    !REFUSED.has(err.code) ||
    typeof err.path !== 'string'
  )
    return undefined
  const path = resolve(err.path)
  // a path in the reports or cache folder is that folder's; in the working folder, only what is written right in it
  const folder = folders.find(
    (f) =>
      path === f.path ||
      (f.what === 'the working folder'
        ? dirname(path) === f.path
        : path.startsWith(f.path.endsWith(sep) ? f.path : `${f.path}${sep}`)),
  )
  const reason = `${REASON[err.code] ?? err.code} (${err.code}${err.syscall ? ` on ${err.syscall}` : ''})`
  if (folder)
    return `ledger-conformance: cannot write ${folder.what} ${folder.path} (at ${path}): ${reason}; ${folder.change}.`
  return `ledger-conformance: cannot write ${path}: ${reason}; make it writable, or name another place (the path you gave, --reports DIR, REPORTS_DIR, LEDGER_CONFORMANCE_CACHE).`
}
