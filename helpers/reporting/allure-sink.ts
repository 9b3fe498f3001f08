import * as allure from 'allure-js-commons'
import type { Exchange } from '../http/recorder'

/** Each HTTP exchange becomes an Allure step with redacted request and response attachments. */
export async function allureExchangeSink(x: Exchange): Promise<void> {
  const outcome = x.status !== undefined ? String(x.status) : `no response (${x.error ?? 'transport error'})`
  const name = `${x.method} ${x.template} → ${outcome}${x.attempt && x.attempt > 1 ? ` (attempt ${x.attempt})` : ''}`
  await allure.step(name, async (step) => {
    await step.parameter('url', x.url)
    await step.parameter('durationMs', String(x.durationMs))
    await allure.attachment('request', JSON.stringify({ method: x.method, url: x.url, headers: x.request.headers, body: readable(x.request.body) }, null, 2), 'application/json')
    if (x.response) {
      await allure.attachment('response', JSON.stringify({ status: x.status, headers: x.response.headers, body: readable(x.response.body) }, null, 2), 'application/json')
    }
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
