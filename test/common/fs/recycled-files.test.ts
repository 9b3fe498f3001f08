import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileRecycler, purgeSpares, retireFiles, spareDirOf } from '../../../common/fs/recycled-files'
import { tempDir } from '../../support/temp-dir'

/** A results folder holding an earlier run's files: name -> content. */
function earlierRun(files: Record<string, string>): string {
  const dir = join(tempDir('recycle'), 'allure-results')
  mkdirSync(dir, { recursive: true })
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content)
  return dir
}

const inode = (path: string) => statSync(path).ino

describe('retireFiles()', () => {
  it("moves the earlier run's files to the spares' folder and leaves the folder empty", () => {
    const dir = earlierRun({ 'a-result.json': 'A', 'b-attachment.json': 'B' })
    mkdirSync(join(dir, 'sub'))
    const ino = inode(join(dir, 'a-result.json'))
    retireFiles(dir)
    expect(readdirSync(dir)).toEqual([])
    expect(readdirSync(spareDirOf(dir)).sort()).toEqual(['a-result.json', 'b-attachment.json', 'sub'])
    expect(inode(join(spareDirOf(dir), 'a-result.json'))).toBe(ino)
  })

  it('deletes the spares an interrupted run left', () => {
    const dir = earlierRun({ 'new-result.json': 'N' })
    mkdirSync(spareDirOf(dir))
    writeFileSync(join(spareDirOf(dir), 'stale-result.json'), 'S')
    retireFiles(dir)
    expect(readdirSync(spareDirOf(dir))).toEqual(['new-result.json'])
  })

  it('creates the folder when there was none', () => {
    const dir = join(tempDir('recycle'), 'allure-results')
    retireFiles(dir)
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('FileRecycler', () => {
  it("writes a new file in a spare's inode, with the new content only", () => {
    const dir = earlierRun({ 'old-attachment.json': 'a much longer content than the new one' })
    const ino = inode(join(dir, 'old-attachment.json'))
    retireFiles(dir)
    const path = new FileRecycler(dir).write('new-attachment.json', 'new')
    expect(readdirSync(dir)).toEqual(['new-attachment.json'])
    expect(readFileSync(path, 'utf8')).toBe('new')
    expect(inode(path)).toBe(ino)
    expect(readdirSync(spareDirOf(dir))).toEqual([])
  })

  it('creates new files once the spares are used up, or when there were none', () => {
    const dir = earlierRun({ 'x.json': 'x' })
    retireFiles(dir)
    const w = new FileRecycler(dir)
    for (const n of ['1.json', '2.json', '3.json']) w.write(n, n)
    expect(readdirSync(dir).sort()).toEqual(['1.json', '2.json', '3.json'])
    expect(readFileSync(join(dir, '3.json'), 'utf8')).toBe('3.json')
    const fresh = join(tempDir('recycle'), 'r')
    mkdirSync(fresh)
    expect(readFileSync(new FileRecycler(fresh).write('a.json', 'a'), 'utf8')).toBe('a')
  })

  it('two writers never take the same spare: one that is gone is skipped', () => {
    const dir = earlierRun(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`s${i}.json`, `old ${i}`])))
    retireFiles(dir)
    const spareInodes = new Set(readdirSync(spareDirOf(dir)).map((f) => inode(join(spareDirOf(dir), f))))
    const a = new FileRecycler(dir, 0)
    const b = new FileRecycler(dir, 0)
    for (let i = 0; i < 4; i++) {
      a.write(`a${i}.json`, `a${i}`)
      b.write(`b${i}.json`, `b${i}`)
    }
    const written = readdirSync(dir).sort()
    expect(written).toHaveLength(8)
    const inodes = written.map((f) => inode(join(dir, f)))
    expect(new Set(inodes).size).toBe(8)
    expect(inodes.filter((i) => spareInodes.has(i))).toHaveLength(6)
    for (const f of written) expect(readFileSync(join(dir, f), 'utf8')).toBe(f.replace('.json', ''))
  })

  it('writes a new file when the spare it took is not a file, and keeps nothing of that spare', () => {
    const dir = earlierRun({})
    retireFiles(dir)
    mkdirSync(join(spareDirOf(dir), 'odd', 'inside'), { recursive: true })
    const path = new FileRecycler(dir).write('new.json', 'new')
    expect(readFileSync(path, 'utf8')).toBe('new')
    expect(readdirSync(dir)).toEqual(['new.json'])
  })

  it('refuses content that is neither a string nor bytes, before touching a spare', () => {
    const dir = earlierRun({ 'old.json': 'old' })
    retireFiles(dir)
    expect(() => new FileRecycler(dir).write('new.json', 42 as unknown as string)).toThrow(TypeError)
    expect(readdirSync(dir)).toEqual([])
    expect(readdirSync(spareDirOf(dir))).toEqual(['old.json'])
  })
})

describe('purgeSpares()', () => {
  it('deletes the spares nobody took', () => {
    const dir = earlierRun({ 'a.json': 'a', 'b.json': 'b' })
    retireFiles(dir)
    new FileRecycler(dir).write('c.json', 'c')
    purgeSpares(dir)
    expect(existsSync(spareDirOf(dir))).toBe(false)
    expect(readdirSync(dir)).toEqual(['c.json'])
  })
})
