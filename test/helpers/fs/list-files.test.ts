import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listFiles } from '../../../helpers/fs/list-files'

describe('listFiles', () => {
  it('finds the files with the suffix in every subfolder', () => {
    const d = mkdtempSync(join(tmpdir(), 'lc-list-'))
    mkdirSync(join(d, 'a/b'), { recursive: true })
    for (const f of ['x.json', 'a/y.json', 'a/b/z.json', 'a/b/z.txt']) writeFileSync(join(d, f), '')
    expect(listFiles(d, '.json').map((f) => f.slice(d.length + 1)).sort()).toEqual(['a/b/z.json', 'a/y.json', 'x.json'])
  })
})
