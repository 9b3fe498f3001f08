import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadTargetConfig, withEmbeddedOrigin } from '../../../../common/config/target-config'
import type { TargetConfig } from '../../../../common/config/types'
import { createSuiteContext } from '../../../../helpers/checks/context'
import { runningInvariants, withRunningCheck } from '../../../../helpers/client/http/running-check'
import { startReference, type RunningReference } from '../../../../reference/server'
import { preflight } from '../../../../runner/run/preflight'
import { cellAction, exploreCells } from '../../../../runner/commands/explore/cell-steps'
import { discardAllureOutsideTests } from '../../../../runner/commands/explore/quiet-allure'
import { World } from '../../../../runner/commands/explore/world'

/**
 * Explore's steps drawn from the exercise model (runner/commands/explore/cell-steps.ts, issue 40): the action of every
 * applicable
 * cell, run once against the embedded reference, reaches its own cell (as the tracker measures it from the answers) and
 * breaks no invariant of the faithful reference; against a defect of a new class, the cell's action breaks the
 * invariant that shows it. Not timed: it compares cells and invariant ids.
 */
interface Outcome {
  reached: string[]
  broken: string[]
  error?: string
}

async function target(defects: string[]): Promise<{ config: TargetConfig; ref: RunningReference }> {
  const base = loadTargetConfig({} as NodeJS.ProcessEnv)
  const ref = await startReference({ ...base.reference, defects: defects as never })
  return { config: await preflight(withEmbeddedOrigin(base, ref.url)), ref }
}

/** Each cell's action in turn on one world (one suite context: one model of the services' state). */
async function runCells(config: TargetConfig, cells: string[]): Promise<Map<string, Outcome>> {
  const w = new World(createSuiteContext(config, { allure: false, trafficFile: false }))
  const out = new Map<string, Outcome>()
  try {
    for (const cell of cells) {
      const tally = await withRunningCheck(`explore-cells > ${cell}`, async () => {
        let error: string | undefined
        try {
          await cellAction(cell).act(w)
        } catch (e) {
          error = (e as Error).message
        }
        return { ...runningInvariants()!, error }
      })
      out.set(cell, {
        reached: Object.keys(tally.exercised ?? {}),
        broken: [...new Set(tally.violations.map((v) => v.invariant))],
        ...(tally.error ? { error: tally.error } : {}),
      })
    }
  } finally {
    await w.close()
  }
  return out
}

beforeAll(() => discardAllureOutsideTests())

describe("explore's cell steps (issue 40)", () => {
  const refs: RunningReference[] = []
  afterAll(async () => {
    for (const r of refs) await r.close()
  })

  it('the action of every applicable cell reaches it, and breaks nothing on the faithful reference', {
    timeout: 600_000,
  }, async () => {
    const { config, ref } = await target([])
    refs.push(ref)
    const cells = exploreCells(config)
    expect(cells.length).toBeGreaterThan(300)
    const outcomes = await runCells(config, cells)
    const missed = cells
      .filter((c) => !outcomes.get(c)!.reached.includes(c))
      .map((c) => `${c}${outcomes.get(c)!.error ? ` (${outcomes.get(c)!.error})` : ''}`)
    const broken = cells
      .filter((c) => outcomes.get(c)!.broken.length > 0)
      .map((c) => `${c}: ${outcomes.get(c)!.broken.join(', ')}`)
    expect(missed).toEqual([])
    expect(broken).toEqual([])
  })

  it("a payment on a terminated policy never booked: that cell's action breaks the paid balance invariant", {
    timeout: 120_000,
  }, async () => {
    const { config, ref } = await target(['exercise-payment-on-terminated-not-counted'])
    refs.push(ref)
    const cell = 'sales.payments.allocate|state=terminated'
    const outcome = (await runCells(config, [cell])).get(cell)!
    expect(outcome.reached).toContain(cell)
    expect(outcome.broken).toContain('PL-INV-002')
  })
})
