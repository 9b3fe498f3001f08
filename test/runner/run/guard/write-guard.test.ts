import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../../../runner/cli/commands'
import {
  guardWrites,
  WRITE_GUARDS,
  writeModeProblem,
  writeOptionsHelp,
  writeRefusal,
  type GuardedCommand,
} from '../../../../runner/run/guard/write-guard'
import { invocationOf } from '../../../../runner/run/guard/command-line'

const prod = { ok: false, why: "profile 'prod' does not set nonProduction: true" }
const base = (command: GuardedCommand) => ({
  command,
  mode: {},
  env: {},
  writes: true,
  nonProduction: prod,
  target: 'https://ledger.example.com',
  invocation: invocationOf([command, '--profile', 'ci/prod.jsonc'], command, {}, true),
})

describe('one production guard (runner/run/guard/write-guard.ts)', () => {
  it('every command that can write is guarded by it, and only those (Command.target)', () => {
    expect(
      COMMANDS.filter((c) => c.target === 'writes')
        .map((c) => c.name)
        .sort(),
    ).toEqual(Object.keys(WRITE_GUARDS).sort())
  })

  it(
    "refuses each command with the same text: why, nothing sent, the ways on as the user's own line with the " + 'flag',
    () => {
      for (const command of Object.keys(WRITE_GUARDS) as GuardedCommand[]) {
        const d = guardWrites(base(command))
        expect(d.go, command).toBe('refused')
        if (d.go !== 'refused') continue
        expect(d.message, command).toMatch(
          /^Production guard: refusing to .* against https:\/\/ledger\.example\.com: profile 'prod' does not set nonProduction: true\. No request was sent\. /,
        )
        expect(d.message, command).toContain(
          `'npx ledger-conformance ${command} --profile ci/prod.jsonc --allow-writes' (or ALLOW_WRITES=1).`,
        )
        expect(d.message, command).toContain('mark a test environment nonProduction: true in its profile'.slice(1))
        if (WRITE_GUARDS[command].readOnly.offered)
          expect(d.message, command).toContain(
            `'npx ledger-conformance ${command} --profile ci/prod.jsonc --read-only'`,
          )
        else expect(d.message, command).toContain(`${command} cannot be read-only`)
      }
    },
  )

  it(
    'lets the writes through on a nonProduction target, with --allow-writes or ALLOW_WRITES=1; reads only with ' +
      '--read-only where offered',
    () => {
      expect(
        guardWrites({ ...base('explore'), nonProduction: { ok: true, why: 'embedded reference service' } }).go,
      ).toBe('writes')
      expect(guardWrites({ ...base('explore'), mode: { allowWrites: true } }).go).toBe('writes')
      expect(guardWrites({ ...base('replay'), env: { ALLOW_WRITES: '1' } }).go).toBe('writes')
      expect(guardWrites({ ...base('replay'), env: { ALLOW_WRITES: '0' } }).go).toBe('refused')
      expect(guardWrites({ ...base('replay'), mode: { readOnly: true } }).go).toBe('reads-only')
      expect(guardWrites({ ...base('run'), writes: false }).go).toBe('writes')
    },
  )

  it('--read-only where a command has no reading part, and both flags at once, are usage errors', () => {
    expect(writeModeProblem('explore', { readOnly: true })).toMatch(
      /^--read-only: explore cannot be read-only: every generated sequence creates and changes data/,
    )
    expect(writeModeProblem('acceptance', { readOnly: true })).toMatch(/acceptance cannot be read-only/)
    expect(writeModeProblem('replay', { readOnly: true })).toBeUndefined()
    for (const c of Object.keys(WRITE_GUARDS) as GuardedCommand[])
      expect(writeModeProblem(c, { readOnly: true, allowWrites: true })).toMatch(/contradict/)
  })

  it("every guarded command's help has the same two option lines", () => {
    for (const c of COMMANDS.filter((x) => x.target === 'writes')) {
      const lines = writeOptionsHelp(c.name as GuardedCommand).split('\n')
      for (const l of lines) expect(c.help, c.name).toContain(l.trim())
    }
  })

  it('the refusal names what would write', () => {
    expect(writeRefusal({ ...base('replay'), detail: 'SL-X recorded 1 write(s) of 3 request(s): POST.' })).toMatch(
      /No request was sent\. SL-X recorded 1 write\(s\) of 3 request\(s\): POST\. Read only with/,
    )
  })
})
