import { createHash } from 'node:crypto'
import type { TargetConfig } from '../config/types'
import type { ExchangeSink } from '../http/recorder'
import { reportFinding } from '../checks/running'
import type { OpenApiContracts } from './openapi'
import { openApiSources } from './openapi-documents'

/** The deviation name of published-contract findings; the profile's deviations['openapi-contract'] says warn or fail. */
export const OPENAPI_DEVIATION = 'openapi-contract'

/**
 * The documents' loaded validators, by content: the sources and the JSON the global setup loaded. The project's
 * content-addressed caches (like the schema compiler's) are its only module-level state: a loaded document is a pure
 * function of that content (openapi-backend compiles each operation's validators on first use, the same ones for
 * every caller), so the suites of a lane share one load and one compile per operation instead of one per suite file
 * (docs/contracts.md "Cost"). A document that did not load is not kept (the next suite file tries again).
 */
const LOADED = new Map<string, Promise<OpenApiContracts>>()

function loadOnce(sources: string[], definitions: Record<string, unknown> | undefined): Promise<OpenApiContracts> {
  const key = createHash('sha256').update(JSON.stringify({ sources, definitions: definitions ?? null })).digest('hex')
  let loaded = LOADED.get(key)
  if (!loaded) {
    // imported on the first exchange to validate: a thread that validates none (the main thread) never loads openapi-backend
    loaded = import('./openapi').then(({ OpenApiContracts }) => OpenApiContracts.load(sources, { quick: true, ...(definitions ? { definitions } : {}) }))
    loaded.catch(() => LOADED.delete(key))
    LOADED.set(key, loaded)
  }
  return loaded
}

/**
 * A recorder sink validating every exchange of a positive flow (a 2xx answer) against the target's documents;
 * each mismatch becomes the deviation `openapi-contract:<operation>` of the check that sent it. None without
 * `openapi` in the profile. The documents are loaded lazily, once per worker and content (loadOnce), from the JSON the
 * global setup loaded (`openapiDocuments`: no fetch per file; it has already refused a document that cannot be loaded
 * or is invalid).
 */
export function openApiSink(config: TargetConfig): ExchangeSink | undefined {
  const sources = openApiSources(config)
  if (sources.length === 0) return undefined
  const policy = config.deviations[OPENAPI_DEVIATION] ?? 'warn'
  let loaded: Promise<OpenApiContracts | undefined> | undefined
  return async (ex) => {
    // an answer over its budget is judged by that finding (helpers/http/recorder.ts); its body was not recorded
    if (ex.status === undefined || ex.status < 200 || ex.status >= 300 || !ex.response || ex.response.overBudget !== undefined) return
    loaded ??= loadOnce(sources, config.openapiDocuments).catch(() => undefined)
    const contracts = await loaded
    if (!contracts) return
    const findings = contracts.check({
      method: ex.method,
      url: ex.url,
      ...(ex.operationId ? { operationId: ex.operationId } : {}),
      status: ex.status,
      requestHeaders: ex.request.headers,
      ...(ex.request.body !== undefined ? { requestBody: ex.request.body } : {}),
      responseHeaders: ex.response.headers,
      responseBody: ex.response.body,
      contentType: ex.response.contentType,
    })
    if (!findings) return
    ex.contract = 'validated'
    const path = new URL(ex.url).pathname
    for (const f of findings) {
      reportFinding({ id: `${OPENAPI_DEVIATION}:${f.operation}`, message: `${f.side} of ${ex.method} ${path} (${ex.status}): ${f.message}; document ${f.pointer}`, policy })
    }
  }
}
