import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../../runner/cli/main'
import { localFaultLine, localFolders, unwritable, unwritableFolderLine } from '../../../runner/cli/local-folders'
import { tempDir } from '../../support/temp-dir'

/** The local machine's faults (issue #37, item 4): exit 2, one line naming the folder and what to change. */
afterEach(() => {
  vi.restoreAllMocks()
})

async function mainOf(argv: string[]): Promise<{ code: number; err: string; out: string }> {
  let err = ''
  let out = ''
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true))
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true))
  const code = await main(argv)
  vi.restoreAllMocks()
  return { code, err, out }
}

describe('a folder the command must write', () => {
  it('is writable when it, or the nearest existing folder above it, can be written', () => {
    const d = tempDir('writable')
    expect(unwritable(d)).toBeUndefined()
    expect(unwritable(join(d, 'a', 'b', 'reports'))).toBeUndefined()
  })

  it('is not when a file is in its way, or in the way of a folder above it', () => {
    const d = tempDir('file-in-way')
    writeFileSync(join(d, 'file'), '')
    expect(unwritable(join(d, 'file'))).toEqual({ code: 'EEXIST', path: join(d, 'file') })
    expect(unwritable(join(d, 'file', 'reports'))?.code).toBe('ENOTDIR')
  })

  it.skipIf(process.getuid?.() === 0)('is not when it is read-only (EACCES; root writes anyway)', () => {
    const d = tempDir('read-only')
    mkdirSync(join(d, 'ro'))
    chmodSync(join(d, 'ro'), 0o555)
    try {
      expect(unwritable(join(d, 'ro', 'reports'))).toEqual({ code: 'EACCES', path: join(d, 'ro') })
    } finally {
      chmodSync(join(d, 'ro'), 0o755)
    }
  })

  it('each folder names what changes it: --reports, REPORTS_DIR, the working folder, the cache variables', () => {
    const cwd = tempDir('cwd')
    expect(localFolders(['--reports', 'out'], {}, cwd, false).map((f) => [f.what, f.change])).toEqual([
      ['the reports folder', 'give --reports a folder you can write'],
      ['the working folder', 'run from a folder you can write, or give --reports DIR (or REPORTS_DIR)'],
    ])
    expect(localFolders([], { REPORTS_DIR: '/r' }, cwd, false)[0]).toMatchObject({
      path: '/r',
      change: 'set REPORTS_DIR (or --reports) to a folder you can write',
    })
    expect(localFolders([], {}, cwd, false)[0]).toMatchObject({
      path: join(cwd, 'reports'),
      change: 'run from a folder you can write, or give --reports DIR (or REPORTS_DIR)',
    })
    const installed = localFolders([], { LEDGER_CONFORMANCE_CACHE: join(cwd, 'file', 'cache') }, cwd, true)
    expect(installed[1]).toMatchObject({
      what: 'the cache folder',
      path: join(cwd, 'file', 'cache'),
      change: 'set LEDGER_CONFORMANCE_CACHE to a folder you can write',
    })
    writeFileSync(join(cwd, 'file'), '')
    expect(unwritableFolderLine(installed.slice(1, 2))).toMatch(
      /^ledger-conformance: cannot write the cache folder \S+\/file\/cache.*\(ENOTDIR\); set LEDGER_CONFORMANCE_CACHE to a folder you can write\. Nothing was sent to the target\.$/,
    )
  })

  it(
    'an error of the file system thrown while a command ran is one line naming its folder; any other error is not ' +
      'one',
    () => {
      const folders = localFolders([], {}, '/work/x', false)
      const e = Object.assign(new Error('EACCES: permission denied, open'), {
        code: 'EACCES',
        syscall: 'open',
        path: '/work/x/reports/checks.json',
      })
      expect(localFaultLine(e, folders)).toBe(
        'ledger-conformance: cannot write the reports folder /work/x/reports (at /work/x/reports/checks.json): ' +
          'permission denied (EACCES on open); run from a folder you can write, or give --reports DIR (or ' +
          'REPORTS_DIR).',
      )
      expect(localFaultLine(Object.assign(new Error('x'), { code: 'EROFS', path: '/elsewhere/f' }), folders)).toMatch(
        /^ledger-conformance: cannot write \/elsewhere\/f: read-only file system \(EROFS\)/,
      )
      // a file the user named deep under the working folder (init's profile) is named as it is
      expect(
        localFaultLine(
          Object.assign(new Error('x'), { code: 'ENOTDIR', syscall: 'open', path: '/work/x/ci/file/p.jsonc' }),
          folders,
        ),
      ).toBe(
        'ledger-conformance: cannot write /work/x/ci/file/p.jsonc: a part of the path is a file, not a folder ' +
          '(ENOTDIR ' +
          'on open); make it writable, or name another place (the path you gave, --reports DIR, REPORTS_DIR, ' +
          'LEDGER_CONFORMANCE_CACHE).',
      )
      expect(
        localFaultLine(Object.assign(new Error('x'), { code: 'EACCES', path: '/work/x/file.tmp' }), folders),
      ).toMatch(/^ledger-conformance: cannot write the working folder \/work\/x \(at \/work\/x\/file\.tmp\)/)
      expect(localFaultLine(new TypeError('x'), folders)).toBeUndefined()
      expect(localFaultLine(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), folders)).toBeUndefined()
    },
  )
})

describe(
  'every command that writes the reports folder refuses an unwritable one: exit 2, one line, nothing ' + 'sent',
  () => {
    for (const command of ['run', 'acceptance', 'merge', 'report']) {
      it(command, async () => {
        const d = tempDir(`unwritable-${command}`)
        writeFileSync(join(d, 'file'), '')
        const r = await mainOf([
          command,
          '--reports',
          join(d, 'file', 'reports'),
          ...(command === 'merge' ? [d, d] : []),
        ])
        expect(r.code).toBe(2)
        expect(r.err.trim().split('\n')).toHaveLength(1)
        expect(r.err).toMatch(
          /^ledger-conformance: cannot write the reports folder .*file\/reports: .*\(ENOTDIR\); give --reports a folder you can write\. Nothing was sent to the target\.\n$/,
        )
        expect(r.err).not.toMatch(/\n\s+at /)
      })
    }
  },
)
