import { dirname } from 'node:path'
import type { TargetConfig } from '../config/types'
import type { ExchangeSink } from '../http/recorder'
import { reportFinding } from '../checks/running'
import { OpenApiContracts, resolveSource } from './openapi'

/** The deviation name of published-contract findings; the profile's deviations['openapi-contract'] says warn or fail. */
export const OPENAPI_DEVIATION = 'openapi-contract'

/** The target's documents as loadable sources ({salesBaseUrl} filled in, files absolute). */
export function openApiSources(config: Pick<TargetConfig, 'openapi' | 'services' | 'profilePath'>): string[] {
  const vars = { salesBaseUrl: config.services.salesBaseUrl, webhookBaseUrl: config.services.webhookBaseUrl, profileDir: dirname(config.profilePath) }
  return (config.openapi ?? []).map((s) => resolveSource(s, vars))
}

/**
 * A recorder sink validating every exchange of a positive flow (a 2xx answer) against the target's documents;
 * each mismatch becomes the deviation `openapi-contract:<operation>` of the check that sent it. None without
 * `openapi` in the profile. The documents are loaded once per suite file, lazily, from the JSON the global setup
 * loaded (`openapiDocuments`: no fetch per file; it has already refused a document that cannot be loaded or is invalid).
 */
export function openApiSink(config: TargetConfig): ExchangeSink | undefined {
  const sources = openApiSources(config)
  if (sources.length === 0) return undefined
  const policy = config.deviations[OPENAPI_DEVIATION] ?? 'warn'
  let loaded: Promise<OpenApiContracts | undefined> | undefined
  return async (ex) => {
    if (ex.status === undefined || ex.status < 200 || ex.status >= 300 || !ex.response) return
    loaded ??= OpenApiContracts.load(sources, { quick: true, ...(config.openapiDocuments ? { definitions: config.openapiDocuments } : {}) }).catch(() => undefined)
    const contracts = await loaded
    if (!contracts) return
    const findings = contracts.findings({
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
    const path = new URL(ex.url).pathname
    for (const f of findings) {
      reportFinding({ id: `${OPENAPI_DEVIATION}:${f.operation}`, message: `${f.side} of ${ex.method} ${path} (${ex.status}): ${f.message}; document ${f.pointer}`, policy })
    }
  }
}
