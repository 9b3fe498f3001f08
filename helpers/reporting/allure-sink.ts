import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as allure from 'allure-js-commons'
import { runningCheck } from '../checks/running'
import type { Exchange } from '../http/recorder'
import { ALLURE_RESULTS_ENV } from './paths'

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
    await attachExchange(JSON.stringify({ request, response }, null, 2))
    if (x.error) throw new Error(x.error)
  }).then(undefined, () => undefined)
}

/**
 * The exchange as an attachment. When the run's Allure reporter said where its results go (LC_ALLURE_RESULTS_DIR,
 * helpers/reporting/allure-reporter.ts), this worker writes the file there and Allure only gets its path; otherwise
 * the content goes through Allure's runtime as usual.
 */
async function attachExchange(text: string): Promise<void> {
  const dir = process.env[ALLURE_RESULTS_ENV]
  if (dir) {
    const file = join(dir, `${randomUUID()}-attachment.json`)
    try {
      writeFileSync(file, text)
      await allure.attachmentPath('exchange', file, { contentType: 'application/json', fileExtension: 'json' })
      return
    } catch {
      // the folder is gone or not writable: send the content instead
    }
  }
  await allure.attachment('exchange', text, 'application/json')
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
