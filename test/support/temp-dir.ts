import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, onTestFinished } from 'vitest'

/**
 * A fresh folder `lc-<name>-XXXXXX` in the temp folder, removed when the test that made it finishes (or, made
 * outside a test, at the end of the file). `npm test` fails when a test leaves anything in the temp folder
 * (test/support/temp-folder-setup.ts).
 */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `lc-${name}-`))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    onTestFinished(remove)
  } catch {
    afterAll(remove)
  }
  return dir
}
