import { describe, expect, it } from 'vitest'
import { RepresentedGroups } from '../../../helpers/checks/group'
import { SetupFailure } from '../../../helpers/checks/setup'

const fail = async () => {
  throw new Error('expected status 401, got status 200')
}

describe('RepresentedGroups: one requirement over many operations', () => {
  it('runs every member while the representative passes; a member that fails still fails', async () => {
    const g = new RepresentedGroups()
    await g.representative('NOTOKEN:sales', 'SEC-A', async () => {})
    let probed = 0
    await g.member('NOTOKEN:sales', 'x', async () => void (probed += 1))
    await expect(g.member('NOTOKEN:sales', 'x', fail)).rejects.toThrow(/status 200/)
    expect(probed).toBe(1)
    expect(g.failedRepresentative('NOTOKEN:sales')).toBeUndefined()
  })

  it(
    'blocks the members of a group whose representative failed, owner the representative, without ' + 'probing',
    async () => {
      const g = new RepresentedGroups()
      await expect(g.representative('SIGNATURE:sales', 'SEC-FOREIGN-sales.quote.create', fail)).rejects.toThrow(
        /status 200/,
      )
      let probed = 0
      const member = g.member(
        'SIGNATURE:sales',
        "the sales service's verification of a token's signature",
        async () => void (probed += 1),
      )
      await expect(member).rejects.toBeInstanceOf(SetupFailure)
      await expect(member).rejects.toMatchObject({ blocked: { owner: 'SEC-FOREIGN-sales.quote.create' } })
      expect(probed).toBe(0)
      // another group (another service) is not affected
      await g.member('SIGNATURE:webhooks', 'x', async () => void (probed += 1))
      expect(probed).toBe(1)
    },
  )

  it('does not let a blocked or skipped representative block its group', async () => {
    const g = new RepresentedGroups()
    await expect(
      g.representative('G', 'R', async () => {
        throw new SetupFailure({ reason: 'setup' })
      }),
    ).rejects.toBeInstanceOf(SetupFailure)
    const skip = Object.assign(new Error('skipped'), { name: 'SkipError' })
    await expect(
      g.representative('H', 'R', async () => {
        throw skip
      }),
    ).rejects.toBe(skip)
    expect(g.failedRepresentative('G')).toBeUndefined()
    expect(g.failedRepresentative('H')).toBeUndefined()
  })
})
