import * as allure from 'allure-js-commons'
import { runningCheck } from '../checks/running'
import type { Exchange } from '../http/recorder'

/**
 * Each HTTP exchange becomes an Allure step with one redacted attachment, `exchange`: the request and the response
 * (one file per exchange, not two: a run writes thousands, once per target in a multi-target run).
 * Only exchanges sent by a running check become steps: those of set-up and clean-up hooks belong to no check (they
 * are in the traffic file). In a multi-target run a hook of one target runs while another target's check does, and
 * Allure would file the hook's exchange under that other check.
 */
export async function allureExchangeSink(x: Exchange): Promise<void> {
  if (runningCheck() === undefined) return
  const outcome = x.status !== undefined ? String(x.status) : `no response (${x.error ?? 'transport error'})`
  const name = `${x.method} ${x.template} → ${outcome}${x.attempt && x.attempt > 1 ? ` (attempt ${x.attempt})` : ''}`
  await allure.step(name, async (step) => {
    await step.parameter('url', x.url)
    await step.parameter('durationMs', String(x.durationMs))
    const request = { method: x.method, url: x.url, headers: x.request.headers, body: readable(x.request.body) }
    const response = x.response ? { status: x.status, headers: x.response.headers, body: readable(x.response.body) } : { error: x.error ?? 'no response' }
    await allure.attachment('exchange', JSON.stringify({ request, response }, null, 2), 'application/json')
    if (x.error) throw new Error(x.error)
  }).then(undefined, () => undefined)
}

/** A recorded (already redacted) body, parsed back when it is JSON so the attachment reads well. */
function readable(body: string | undefined): unknown {
  if (body === undefined) return undefined
  try {
    return JSON.parse(body) as unknown
  } catch {
    return body
  }
}
