import { describe, expect, it } from 'vitest'
import {
  asClient,
  awaitedByOthers,
  noteVerdict,
  runningChain,
  runningCheck,
  runningClient,
  runningIndependently,
  runningInvariants,
  withRunningCheck,
} from '../../../../helpers/client/http/running-check'
import { RequestLimiter } from '../../../../helpers/client/http/limiter'

describe('awaitedByOthers', () => {
  it(
    'runs the work of an independent check in line with the dependent chains, same check, chain and ' + 'tally',
    async () => {
      const seen = await withRunningCheck(
        'table > cell',
        async () => {
          const outside = runningIndependently()
          const inside = await awaitedByOthers(async () => {
            await Promise.resolve()
            noteVerdict({ evaluated: ['SL-INV-001'], violations: [] })
            return { independent: runningIndependently(), check: runningCheck(), chain: runningChain() }
          })
          return { outside, inside, after: runningIndependently(), tally: runningInvariants()?.evaluated }
        },
        { name: 'table > cell', independent: true },
      )
      expect(seen).toEqual({
        outside: true,
        inside: { independent: false, check: 'table > cell', chain: 'table > cell' },
        after: true,
        tally: { 'SL-INV-001': 1 },
      })
    },
  )

  it('changes nothing for a check of a dependent chain or outside any check', async () => {
    expect(
      await withRunningCheck('lifecycle > step', () => awaitedByOthers(() => runningIndependently()), {
        name: 'lifecycle',
      }),
    ).toBe(false)
    expect(awaitedByOthers(() => runningCheck())).toBeUndefined()
  })

  it('puts its requests before the waiting background requests at the limiter', async () => {
    const limiter = new RequestLimiter(1)
    const order: string[] = []
    let release!: () => void
    const first = limiter.run(() => new Promise<void>((r) => (release = r)))
    const send = (label: string) => limiter.run(async () => void order.push(label), runningIndependently())
    const jobs = withRunningCheck('table > cell', () => [send('probe'), awaitedByOthers(() => send('shared quote'))], {
      name: 'table > cell',
      independent: true,
    })
    await new Promise<void>((r) => setImmediate(r))
    release()
    await first
    await Promise.all(jobs)
    expect(order).toEqual(['shared quote', 'probe'])
  })
})

describe('asClient: one of the clients a check plays at once (a lane of its own in a history timeline)', () => {
  it('names the client inside, shares the check, its chain and its tally, and is nothing outside a check', () => {
    withRunningCheck('block > concurrent check', () => {
      const outer = runningInvariants()
      asClient('writer 1', () => {
        expect(runningClient()).toBe('writer 1')
        expect(runningCheck()).toBe('block > concurrent check')
        expect(runningChain()).toBe('block > concurrent check')
        expect(runningInvariants()).toBe(outer)
      })
      expect(runningClient()).toBeUndefined()
    })
    expect(asClient('writer 2', () => runningClient())).toBeUndefined()
  })
})
