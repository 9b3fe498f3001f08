import { describe, expect, it } from 'vitest'
import { ScopedValue } from '../../../../helpers/client/http/scoped'

const tick = () => new Promise((r) => setTimeout(r, 1))

describe('ScopedValue: values carried through awaits in one store', () => {
  it('keeps each value through awaits, the innermost run winning, and the other values as they were', async () => {
    const check = new ScopedValue<string>('check')
    const purpose = new ScopedValue<string>('purpose')
    expect(check.get()).toBeUndefined()
    await check.run('outer', async () => {
      await tick()
      expect(check.get()).toBe('outer')
      await purpose.run('probe', async () => {
        await tick()
        expect([check.get(), purpose.get()]).toEqual(['outer', 'probe'])
        await check.run('inner', async () => {
          await tick()
          expect([check.get(), purpose.get()]).toEqual(['inner', 'probe'])
        })
        expect(check.get()).toBe('outer')
      })
      expect(purpose.get()).toBeUndefined()
    })
    expect(check.get()).toBeUndefined()
  })

  it('keeps work running side by side apart', async () => {
    const check = new ScopedValue<number>('check')
    const seen = await Promise.all(
      [1, 2, 3].map((n) =>
        check.run(n, async () => {
          const got: (number | undefined)[] = []
          for (let i = 0; i < 3; i += 1) {
            await tick()
            got.push(check.get())
          }
          return got
        }),
      ),
    )
    expect(seen).toEqual([
      [1, 1, 1],
      [2, 2, 2],
      [3, 3, 3],
    ])
  })
})
