import * as allure from 'allure-js-commons'
import { getGlobalTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { discardAllureOutsideTests } from '../../../../runner/commands/explore/quiet-allure'

describe('discardAllureOutsideTests (runner/commands/explore/quiet-allure.ts)', () => {
  const before = getGlobalTestRuntime()
  afterEach(() => {
    setGlobalTestRuntime(before)
    vi.restoreAllMocks()
  })

  it(
    "outside vitest's Allure runtime, an attachment prints nothing (allure-js-commons warned once per " + 'call)',
    async () => {
      const printed: string[] = []
      for (const m of ['log', 'warn', 'error', 'info'] as const)
        vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void printed.push(a.join(' ')))
      await allure.attachment('evidence', '{}', 'application/json')
      expect(printed.join('\n')).toMatch(/no test runtime is found/)
      printed.length = 0
      discardAllureOutsideTests()
      await allure.attachment('evidence', '{}', 'application/json')
      await allure.step('a step', () => undefined)
      expect(printed).toEqual([])
    },
  )
})
