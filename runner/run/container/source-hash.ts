import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** What the reference image is built from (the Dockerfile's COPY lines; node_modules is covered by the lock file). */
export const IMAGE_SOURCES = [
  'Dockerfile',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'fixtures',
  'common',
  'reference',
]

/** Label of the reference image that records the hash of its sources. */
export const SOURCE_HASH_LABEL = 'ledger-conformance.source-hash'

function files(root: string, path: string): string[] {
  const full = join(root, path)
  const st = statSync(full, { throwIfNoEntry: false })
  if (!st) return []
  if (st.isFile()) return [path]
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(root, join(path, name)))
}

/** A hash of the image's sources in the working tree: an image with another hash is stale. */
export function imageSourceHash(root: string): string {
  const h = createHash('sha256')
  for (const f of IMAGE_SOURCES.flatMap((p) => files(root, p))) {
    h.update(relative(root, join(root, f)))
    h.update('\0')
    h.update(readFileSync(join(root, f)))
    h.update('\0')
  }
  return h.digest('hex').slice(0, 16)
}
