import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listFiles } from '../../../common/fs/list-files'
import { tempDir } from '../../support/temp-dir'

describe('listFiles', () => {
  it('finds the files with the suffix in every subfolder', () => {
    const d = tempDir('list')
    mkdirSync(join(d, 'a/b'), { recursive: true })
    for (const f of ['x.json', 'a/y.json', 'a/b/z.json', 'a/b/z.txt']) writeFileSync(join(d, f), '')
    expect(
      listFiles(d, '.json')
        .map((f) => f.slice(d.length + 1))
        .sort(),
    ).toEqual(['a/b/z.json', 'a/y.json', 'x.json'])
  })
})
