import { randomUUID } from 'node:crypto'
import { threadId } from 'node:worker_threads'
import * as allure from 'allure-js-commons/sync'
import { FileRecycler } from '../../../common/fs/recycled-files'
import { runningCheck } from './running-check'
import { redactedWith, type Exchange } from './recorder'
import { Redactor, runRedactor } from '../evidence/redact'
import { safeJsonOfData, safeText } from '../evidence/neutralise'
import { ALLURE_RESULTS_ENV } from '../../../common/report-paths'

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
  // Allure's synchronous API: the same messages as its promise API (step start, two parameters, the attachment, step
  // stop), sent at once instead of one await each (about 1 600 exchanges a run; docs/performance.md)
  try {
    allure.step(safeText(name), (step) => {
      step.parameter('url', safeText(x.url))
      step.parameter('durationMs', String(x.durationMs))
      const request = {
        method: safeText(x.method),
        url: x.url,
        headers: x.request.headers,
        body: readable(x.request.body),
      }
      const response = x.response
        ? { status: x.status, headers: x.response.headers, body: readable(x.response.body) }
        : { error: x.error ?? 'no response' }
      // header names and values, bodies, URL: the recorder redacted them; here every string is neutralised once more
      // (C1 and bidi controls in a JSON body stay raw through JSON.stringify), and masked again only when the run's
      // redactor learned a secret since the recorder began masking this exchange (its own answer may have taught it
      // one)
      attachExchange(safeJsonOfData({ request, response }, maskedAlready(x) ? NOTHING_MORE : runRedactor()))
      if (x.error) throw new Error(safeText(x.error))
    })
  } catch {
    // the step is reported failed with the transport error: nothing to do here
  }
}

/** A redactor that knows no secret: what it still masks (any JWT) the recorder masked already. */
const NOTHING_MORE = new Redactor()

/** True when the run's redactor masked this exchange's texts and has learned no secret since it began. */
function maskedAlready(x: Exchange): boolean {
  const by = redactedWith(x)
  return by !== undefined && by.redactor === runRedactor() && by.redactor.size === by.known
}

/**
 * The exchange as an attachment. When the run's Allure reporter said where its results go (LC_ALLURE_RESULTS_DIR,
 * runner/vitest/allure-reporter.ts), this worker writes the file there and Allure only gets its path; otherwise
 * the content goes through Allure's runtime as usual.
 */
function attachExchange(text: string): void {
  const dir = process.env[ALLURE_RESULTS_ENV]
  if (dir) {
    try {
      const file = recyclerFor(dir).write(`${randomUUID()}-attachment.json`, text)
      allure.attachmentPath('exchange', file, { contentType: 'application/json', fileExtension: 'json' })
      return
    } catch {
      // the folder is gone or not writable: send the content instead
    }
  }
  allure.attachment('exchange', text, 'application/json')
}

/**
 * One writer per results folder and worker thread, over the previous run's files (common/fs/recycled-files.ts). Kept
 * for the worker's life like the contract registry: it holds no result, only which spare files it may still take.
 * The workers start at different places in the list of spares, so they seldom reach for the same one.
 */
const recyclers = new Map<string, FileRecycler>()

function recyclerFor(dir: string): FileRecycler {
  let r = recyclers.get(dir)
  if (!r) {
    r = new FileRecycler(dir, (threadId * 0.618034) % 1)
    recyclers.set(dir, r)
  }
  return r
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
