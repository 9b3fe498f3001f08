import OpenAPIBackend, { type Operation } from 'openapi-backend'
import type { Ajv, ErrorObject } from 'ajv'
import { definitionsOf, OpenApiDocumentError, readDocuments } from './openapi-documents'
import { DOCUMENT_AJV_LOGGER, withFormats } from '../../common/ajv'

export { OpenApiDocumentError, resolveSource } from './openapi-documents'

/**
 * Published-contract checks (docs/contracts.md "Published contracts"): the target's own OpenAPI documents
 * (profile field `openapi`, 3.0 or 3.1, files or URLs), loaded and validated with openapi-backend, against which
 * every exchange of a positive flow (a 2xx answer) is validated, request and response.
 */

/** One mismatch between an exchange and the document. */
export interface ContractFinding {
  /** The operation: the catalogue id when the exchange is a spec operation, else the document's operationId. */
  operation: string
  side: 'request' | 'response'
  /** `<source>#/paths/~1api~1.../get/responses/200` plus the schema path of the failing keyword. */
  pointer: string
  message: string
}

/** What of an exchange is validated (the recorder's exchange has it, redacted). */
export interface ExchangeForContract {
  method: string
  url: string
  operationId?: string
  status?: number
  requestHeaders: Record<string, string>
  requestBody?: string
  responseHeaders?: Record<string, string>
  responseBody?: string
  contentType?: string
}

function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1')
}

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function describe(errors: ErrorObject[] | null | undefined): { message: string; schemaPath: string }[] {
  return (errors ?? []).map((e) => ({ message: `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && 'allowedValues' in e.params ? ` (${String((e.params as { allowedValues: unknown[] }).allowedValues)})` : ''}`, schemaPath: e.schemaPath }))
}

/**
 * openapi-backend builds a fresh Ajv for every validator it compiles (validation.js getAjv), so each of them
 * compiled ajv's meta-schema again: ~100 ms for an operation's first exchange, paid again in every suite file
 * (docs/contracts.md "Cost"). This customizer hands back one Ajv per validation context and options, per
 * document: the first fresh instance (with openapi-backend's own formats) is kept and reused, so the meta-schema
 * is compiled once and each operation's validators once.
 */
function sharedAjv(): (fresh: Ajv, options: object, context: string) => Ajv {
  const kept = new Map<string, Ajv>()
  return (fresh, options, context) => {
    const key = `${context}:${JSON.stringify(options)}`
    // openapi-backend's own ajv knows only its int32/int64/float/double/byte/binary/password formats: ajv-formats'
    // (uuid, date-time, ...) are added, so a "format": "uuid" is checked rather than ignored with a console warning
    const ajv = kept.get(key) ?? withFormats(fresh)
    kept.set(key, ajv)
    return ajv
  }
}

interface LoadedDocument {
  source: string
  api: OpenAPIBackend
  /** The document's operations with a compiled path pattern, most specific first (openapi-backend's own matching costs ms per call). */
  routes: { method: string; pattern: RegExp; names: string[]; op: Operation }[]
}

/** Compiles every operation's path template once: {param} matches one segment; more literal segments first. */
function routesOf(api: OpenAPIBackend): LoadedDocument['routes'] {
  const escape = (t: string) => t.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  return api.router
    .getOperations()
    .map((op) => {
      const path = op.path.replace(/\/+$/, '') || '/'
      const names: string[] = []
      const source = path
        .split('/')
        .map((seg) => escape(seg).replace(/\{([^}]+)\}/g, (_m, name: string) => `(?<p${names.push(name) - 1}>[^/]+)`))
        .join('/')
      return { method: op.method.toLowerCase(), pattern: new RegExp(`^${source}/?$`), names, op, literal: path.split('/').filter((x) => x && !x.includes('{')).length }
    })
    .sort((a, b) => b.literal - a.literal)
    .map(({ method, pattern, names, op }) => ({ method, pattern, names, op }))
}

/** The loaded documents of one target. */
export class OpenApiContracts {
  private constructor(
    private readonly documents: LoadedDocument[],
    /** The parsed JSON of each document as loaded (before dereferencing), by source. */
    readonly definitions: Record<string, unknown>,
  ) {}

  /** Loads and validates every document (strict): throws OpenApiDocumentError naming the source and the problem. */
  static async load(sources: readonly string[], options: { quick?: boolean; definitions?: Record<string, unknown>; deadlineMs?: number; maxBytes?: number } = {}): Promise<OpenApiContracts> {
    const documents: LoadedDocument[] = []
    const read = await readDocuments(sources, options)
    const definitions = definitionsOf(read)
    for (const [source, definition] of read) {
      const api = new OpenAPIBackend({ definition: definition as never, strict: true, validate: true, quick: options.quick ?? false, ignoreTrailingSlashes: false, ajvOpts: { strict: false, logger: DOCUMENT_AJV_LOGGER, ...(options.quick ? { validateSchema: false } : {}) }, customizeAjv: sharedAjv() })
      try {
        await api.init()
      } catch (e) {
        throw new OpenApiDocumentError(source, `is not a valid OpenAPI document: ${String((e as Error).message).slice(0, 600)}`)
      }
      documents.push({ source, api, routes: routesOf(api) })
    }
    return new OpenApiContracts(documents, definitions)
  }

  /** The mismatches of one exchange (none when its path is in no document: the document does not describe it). */
  findings(ex: ExchangeForContract): ContractFinding[] {
    return this.check(ex) ?? []
  }

  /** The mismatches of one exchange, or undefined when no document describes it (nothing was validated). */
  check(ex: ExchangeForContract): ContractFinding[] | undefined {
    const url = new URL(ex.url)
    const query = Object.fromEntries(url.searchParams.entries())
    const request = { method: ex.method.toLowerCase(), path: url.pathname, query, headers: lowerKeys(ex.requestHeaders), body: parseBody(ex.requestBody) }
    for (const { source, api, routes } of this.documents) {
      let groups: Record<string, string> | undefined
      const route = routes.find((r) => r.method === request.method && (groups = r.pattern.exec(request.path)?.groups ?? (r.pattern.test(request.path) ? {} : undefined)) !== undefined)
      if (!route) continue
      const op = route.op
      // the path parameters as matched here (openapi-backend's own parsing misses a template's trailing slash)
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(groups?.[`p${i}`] ?? '')]))
      const operation = ex.operationId ?? op.operationId ?? `${op.method.toUpperCase()} ${op.path}`
      const base = `${source}#/paths/${escapePointer(op.path)}/${op.method}`
      const out: ContractFinding[] = []
      const req = api.validateRequest({ ...request, params } as never, op)
      for (const e of describe(req.errors)) out.push({ operation, side: 'request', pointer: `${base} (${e.schemaPath})`, message: `request ${e.message}` })
      if (ex.status !== undefined) {
        const declared = Object.keys(op.responses ?? {})
        const code = String(ex.status)
        if (declared.length > 0 && !declared.includes(code) && !declared.includes(`${code[0]}XX`) && !declared.includes('default')) {
          out.push({ operation, side: 'response', pointer: `${base}/responses`, message: `status ${code} is not declared (${declared.join(', ')})` })
        } else if (isJson(ex.contentType) && ex.responseBody !== undefined && ex.responseBody !== '') {
          const res = api.validateResponse(parseBody(ex.responseBody), op, ex.status)
          for (const e of describe(res.errors)) out.push({ operation, side: 'response', pointer: `${base}/responses/${code} (${e.schemaPath})`, message: `response ${e.message}` })
        }
      }
      return out
    }
    return undefined
  }
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/([a-z0-9.+-]*\+)?json\b/i.test(contentType ?? '')
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]))
}
