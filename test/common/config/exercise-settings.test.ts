import { describe, expect, it } from 'vitest'
import { EXERCISE_DEFAULTS, exerciseSettings } from '../../../common/config/exercise-settings'

describe('extensions.exercise of the profile', () => {
  it(
    'has documented defaults: one answer for the list, the replaced token accepted, a terminated policy refusing ' +
      'changes',
    () => {
      expect(exerciseSettings({ extensions: {} })).toEqual(EXERCISE_DEFAULTS)
      expect(EXERCISE_DEFAULTS).toMatchObject({
        oldTokenAfterRefresh: 'accepted',
        terminatedPolicyChanges: 'refused',
        subscriptionsForVolume: 60,
      })
      expect(exerciseSettings({ extensions: {} }).listPage).toBeUndefined()
    },
  )

  it('fills the page parameters a profile leaves out', () => {
    expect(exerciseSettings({ extensions: { exercise: { listPage: { size: 10 } } } }).listPage).toEqual({
      size: 10,
      pageParam: 'page',
      sizeParam: 'pageSize',
      firstPage: 1,
    })
    expect(
      exerciseSettings({
        extensions: {
          exercise: {
            listPage: { size: 5, pageParam: 'p', sizeParam: 'limit', firstPage: 0 },
            oldTokenAfterRefresh: 'refused',
          },
        },
      }),
    ).toMatchObject({
      listPage: { size: 5, pageParam: 'p', sizeParam: 'limit', firstPage: 0 },
      oldTokenAfterRefresh: 'refused',
    })
  })
})
