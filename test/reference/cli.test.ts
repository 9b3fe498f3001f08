import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'

const TSX = resolve(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs')

function run(
  args: string[],
  until: RegExp,
): Promise<{ out: string; code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [TSX, 'reference/cli.ts', ...args], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let stopped = false
    const onData = (d: Buffer) => {
      out += d.toString()
      // one SIGTERM: output after it ("SIGTERM: stopping") must not send a second one, which would kill the
      // process by the signal before it closes cleanly (the service handles the first one only)
      if (!stopped && until.test(out)) {
        stopped = true
        child.kill('SIGTERM')
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('close', (code, signal) => done({ out, code, signal }))
  })
}

describe('npm run reference', () => {
  it('prints the base URLs and demo credentials, and stops on SIGTERM', async () => {
    const r = await run(['--port', '0'], /Run the suite against it/)
    expect(r.out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/)
    expect(r.out).toMatch(/sales \(ledger\):\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ledger/)
    expect(r.out).toMatch(/identity:\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1\/identifier/)
    expect(r.out).toMatch(/webhooks:\s+http:\/\/127\.0\.0\.1:\d+\/api\/webhook/)
    expect(r.out).toMatch(/broker@acme\.test \/ demo-pass-4821/)
    expect(r.out).toMatch(/SIGTERM: stopping/)
    expect(r.code).toBe(0)
  })

  it('refuses an unknown defect and a bad port, naming them', async () => {
    expect((await run(['--port', '0', '--defect', 'nope'], /$^/)).out).toMatch(/unknown defect\(s\): nope/)
    expect((await run(['--port', 'abc'], /$^/)).out).toMatch(/--port: expected a non-negative integer/)
  })
})
