import { createHash } from 'node:crypto'
import type { TargetConfig } from '../../../common/config/types'
import type { ExchangeSink } from '../http/recorder'
import { noteContract, requestInvalidOnPurpose } from '../http/running-check'
import type { OpenApiContracts } from './openapi'
import { openApiSources } from './openapi-documents'

/**
 * The deviation name of published-contract findings; the profile's deviations['openapi-contract'] says warn or fail.
 */
export const OPENAPI_DEVIATION = 'openapi-contract'
/** The deviation name of a status the operation does not document: warn unless the profile says fail. */
export const OPENAPI_STATUS_DEVIATION = 'openapi-undocumented-status'

/**
 * The documents' loaded validators, by content: the sources and the JSON the global setup loaded. The project's
 * content-addressed caches (like the schema compiler's) are its only module-level state: a loaded document is a pure
 * function of that content (openapi-backend compiles each operation's validators on first use, the same ones for
 * every caller), so the suites of a lane share one load and one compile per operation instead of one per suite file
 * (docs/contracts.md "Cost"). A document that did not load is not kept (the next suite file tries again).
 */
const LOADED = new Map<string, Promise<OpenApiContracts>>()

function loadOnce(sources: string[], definitions: Record<string, unknown> | undefined): Promise<OpenApiContracts> {
  const key = createHash('sha256')
    .update(JSON.stringify({ sources, definitions: definitions ?? null }))
    .digest('hex')
  let loaded = LOADED.get(key)
  if (!loaded) {
    // imported on the first exchange to validate: a thread that validates none (the main thread) never loads
    // openapi-backend;
    // the global setup has repaired the documents and listed their warnings already
    loaded = import('./openapi').then(({ OpenApiContracts }) =>
      OpenApiContracts.load(sources, { quick: true, ...(definitions ? { definitions, repaired: true } : {}) }),
    )
    loaded.catch(() => LOADED.delete(key))
    LOADED.set(key, loaded)
  }
  return loaded
}

/**
 * Whether a finding of this kind fails its contract check: the profile's `contract` (default `fail` once it names
 * documents: the user asked to be held to them), overridden by `deviations["openapi-contract"]`; an undocumented
 * status is a deviation unless `deviations["openapi-undocumented-status"]` is `fail` (docs/contracts.md).
 */
export function contractPolicy(
  config: Pick<TargetConfig, 'deviations'> & { contract?: 'fail' | 'warn' },
  kind: string,
): 'fail' | 'warn' {
  if (kind === 'status') return config.deviations[OPENAPI_STATUS_DEVIATION] === 'fail' ? 'fail' : 'warn'
  const chosen = config.deviations[OPENAPI_DEVIATION] ?? config.contract ?? 'fail'
  return chosen === 'warn' ? 'warn' : 'fail'
}

/**
 * A recorder sink judging every exchange that got an answer (any status) against the target's documents: the
 * request (unless the check sends it invalid on purpose: invalidOnPurpose), the status, the media type and the body.
 * Each finding goes to the running check's contract tally, a contract check `CT-<operation>-<kind>` of its own
 * (runner/run/results/contract-checks.ts), never the failure of the check that sent the request. An exchange no
 * document describes is marked `not-described` (the reports list those operations with their count). None without
 * `openapi` in the profile. The documents are loaded lazily, once per worker and content (loadOnce), from the JSON
 * the global setup loaded and repaired (`openapiDocuments`: no fetch per file).
 */
export function openApiSink(config: TargetConfig): ExchangeSink | undefined {
  const sources = openApiSources(config)
  if (sources.length === 0) return undefined
  let loaded: Promise<OpenApiContracts | undefined> | undefined
  return async (ex) => {
    // an answer over its budget is judged by that finding (helpers/client/http/recorder.ts); its body was not recorded
    if (ex.status === undefined || !ex.response || ex.response.overBudget !== undefined) return
    loaded ??= loadOnce(sources, config.openapiDocuments).catch(() => undefined)
    const contracts = await loaded
    if (!contracts) return
    const onPurpose = requestInvalidOnPurpose()
    const findings = contracts.check(
      {
        method: ex.method,
        url: ex.url,
        ...(ex.operationId ? { operationId: ex.operationId } : {}),
        status: ex.status,
        requestHeaders: ex.request.headers,
        ...(ex.request.body !== undefined ? { requestBody: ex.request.body } : {}),
        responseHeaders: ex.response.headers,
        responseBody: ex.response.body,
        contentType: ex.response.contentType,
      },
      { request: onPurpose === undefined },
    )
    if (!findings) {
      ex.contract = 'not-described'
      return
    }
    ex.contract = 'validated'
    const path = new URL(ex.url).pathname
    for (const f of findings) {
      noteContract({
        id: `CT-${f.operation}-${f.kind}`,
        operation: f.operation,
        kind: f.kind,
        policy: contractPolicy(config, f.kind),
        document: f.document,
        pointer: f.pointer,
        expected: f.expected,
        actual: f.message,
        exchange: `${ex.method} ${path} (${ex.status})`,
      })
    }
  }
}
