/**
 * tsx scripts/layers/rewrite-moved-imports.ts <base-commit> [file ...]
 *
 * After a merge across a move (the layers of issue 28, runner/ by role and helpers/client's config of issue 38):
 * rewrites the relative imports (and other './'/'../' path strings)
 * of the given files (default: every tracked .ts file) that point at a file renamed between <base-commit> and HEAD, so
 * a branch written against the old paths (helpers/model/..., helpers/sales/..., helpers/config) compiles against
 * the layers. The renames are git's (`git diff -M --diff-filter=R`); a string that still resolves is left alone.
 * Prints each file it changed; exit 0.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { posix } from 'node:path'
import { PROJECT_ROOT } from '../../common/project-root'

/** old path -> new path (repo-relative, with extension) of the files renamed between two commits. */
export function renamesSince(base: string, root = PROJECT_ROOT): Map<string, string> {
  const out = execFileSync('git', ['diff', '--name-status', '-M40%', '--diff-filter=R', base, 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
  })
  return new Map(
    out
      .split('\n')
      .map((l) => l.split('\t'))
      .filter((p) => p.length === 3)
      .map((p) => [p[1]!, p[2]!] as [string, string]),
  )
}

/**
 * The text of `file` (repo-relative) with each relative path string that no longer resolves, and resolved to a
 * renamed file, pointed at its new place. `exists` says whether a repo-relative path exists now. When `file` itself
 * was renamed (a branch edited it at its old place and added imports there), a string that resolves from neither
 * place is read from the file's old folder: pointed at the renamed target, or at the same file from the new folder.
 */
export function rewriteMovedImports(
  text: string,
  file: string,
  renames: ReadonlyMap<string, string>,
  exists: (rel: string) => boolean,
): string {
  const dir = posix.dirname(file)
  const oldFile = [...renames].find(([, to]) => to === file)?.[0]
  const resolves = (t: string) => exists(t) || exists(`${t}.ts`) || exists(`${t}/index.ts`)
  const movedTo = (target: string): string | undefined => {
    const withTs = renames.get(`${target}.ts`)
    if (withTs) return withTs.endsWith('/index.ts') ? withTs.slice(0, -'/index.ts'.length) : withTs.slice(0, -3)
    return renames.get(target) ?? renames.get(`${target}/index.ts`)?.slice(0, -'/index.ts'.length)
  }
  return text.replace(/(['"])(\.\.?\/[^'"\n$]*)\1/g, (all, q: string, spec: string) => {
    const target = posix.normalize(posix.join(dir, spec))
    if (resolves(target)) return all
    let moved = movedTo(target)
    if (!moved && oldFile) {
      const fromOld = posix.normalize(posix.join(posix.dirname(oldFile), spec))
      moved = movedTo(fromOld) ?? (resolves(fromOld) ? fromOld : undefined)
    }
    if (!moved) return all
    const rel = posix.relative(dir, moved)
    return `${q}${rel.startsWith('.') ? rel : `./${rel}`}${q}`
  })
}

if (process.argv[1]?.endsWith('rewrite-moved-imports.ts')) {
  const [base, ...given] = process.argv.slice(2)
  if (!base) {
    process.stderr.write('usage: tsx scripts/layers/rewrite-moved-imports.ts <base-commit> [file ...]\n')
    process.exit(2)
  }
  const renames = renamesSince(base)
  const files =
    given.length > 0
      ? given
      : execFileSync('git', ['ls-files', '*.ts'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).split('\n').filter(Boolean)
  const exists = (rel: string) => existsSync(posix.join(PROJECT_ROOT, rel))
  for (const f of files) {
    const text = readFileSync(posix.join(PROJECT_ROOT, f), 'utf8')
    const out = rewriteMovedImports(text, f, renames, exists)
    if (out !== text) {
      writeFileSync(posix.join(PROJECT_ROOT, f), out)
      process.stdout.write(`${f}\n`)
    }
  }
}
