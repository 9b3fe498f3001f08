import { escapePointerToken as escapePointer } from '../data/json-pointer'
import { mediaTypeOf } from '../content/document'
import OpenAPIBackend, { type Operation } from 'openapi-backend'
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import OpenAPISchemaValidator from 'openapi-schema-validator'
import { createRequire } from 'node:module'
import { OpenApiDocumentError, readDocuments } from './openapi-documents'
import { repairDocument, type DocumentWarning } from './openapi-repair'
import { createAjv } from '../../../common/ajv'
import { runRedactor, safeText } from '../evidence/redact'

export { OpenApiDocumentError, resolveSource } from './openapi-documents'
export type { DocumentWarning } from './openapi-repair'

/**
 * Published-contract checks (docs/contracts.md "Published contracts"): the target's own OpenAPI documents
 * (profile field `openapi`, 3.0 or 3.1, files or URLs), loaded and validated with openapi-backend, against which
 * every answered exchange (any status) is validated: request, status, media type, body and declared response headers.
 */

/**
 * The kinds of contract finding; each kind on each operation is one contract check `CT-<operation>-<kind>`
 * (docs/contracts.md "Contract checks"):
 * - `request`: the suite's own request does not match the operation's parameters or body;
 * - `response`: the answer's body does not match what the document declares for its status;
 * - `response-headers`: a header the document declares for the answer's status is required and missing, or its value
 *   (parsed by the `simple` style) does not match the header's schema;
 * - `media-type`: the answer's Content-Type is none the document declares for its status;
 * - `status`: the operation does not document the answer's status (a deviation by default: published documents
 *   rarely list every refusal).
 */
export type ContractFindingKind = 'request' | 'response' | 'response-headers' | 'media-type' | 'status'

/** One mismatch between an exchange and the document. */
export interface ContractFinding {
  /** The operation: the catalogue id when the exchange is a spec operation, else the document's operationId. */
  operation: string
  kind: ContractFindingKind
  side: 'request' | 'response'
  /** The document (its source). */
  document: string
  /** `<source>#/paths/~1api~1.../get/responses/200` plus the schema path of the failing keyword. */
  pointer: string
  /** What the document declares there. */
  expected: string
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

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function describe(errors: ErrorObject[] | null | undefined): { message: string; schemaPath: string }[] {
  return (errors ?? []).map((e) => ({
    message: `${e.instancePath || '/'} ${e.message ?? e.keyword}${
      e.params && 'allowedValues' in e.params
        ? ` (${String((e.params as { allowedValues: unknown[] }).allowedValues)})`
        : ''
    }`,
    schemaPath: e.schemaPath,
  }))
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
    let ajv = kept.get(key)
    if (!ajv) {
      // uuid, date, date-time, email, uri, ... (openapi-backend adds only
      // int32/int64/float/double/byte/binary/password)
      ajv = (addFormats as unknown as (a: Ajv) => Ajv)(fresh)
      kept.set(key, ajv)
    }
    return ajv
  }
}

interface LoadedDocument {
  source: string
  api: OpenAPIBackend
  /**
   * The document's operations with a compiled path pattern, most specific first (openapi-backend's own matching costs
   * ms per call).
   */
  routes: Route[]
  /** The response headers' compiled schemas, by pointer (compiled on first use, once per document). */
  headerValidators: Map<string, ValidateFunction | undefined>
}

/** One operation of a document, with what its validation needs compiled once. */
interface Route {
  method: string
  pattern: RegExp
  names: string[]
  op: Operation
  /** openapi-backend's own path-parameter parser of the template (bath), built once instead of at every request. */
  pathParams?: (path: string) => Record<string, string> | null
  /** The operation's first query parameter of each name (what openapi-backend's `_.find` returns). */
  queryParams?: Map<string, Record<string, unknown>>
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
      return {
        method: op.method.toLowerCase(),
        pattern: new RegExp(`^${source}/?$`),
        names,
        op,
        literal: path.split('/').filter((x) => x && !x.includes('{')).length,
      }
    })
    .sort((a, b) => b.literal - a.literal)
    .map(({ method, pattern, names, op }) => ({ method, pattern, names, op }))
}

/** The loaded documents of one target. */
export class OpenApiContracts {
  private constructor(
    private readonly documents: LoadedDocument[],
    /** The parsed JSON of each document as loaded and repaired (before dereferencing), by source. */
    readonly definitions: Record<string, unknown>,
    /** The documents' authoring errors, each once, with its JSON pointer (docs/contracts.md "Document warnings"). */
    readonly warnings: DocumentWarning[],
  ) {}

  /**
   * Loads every document leniently: only a document that cannot be read or is not OpenAPI 3.0/3.1 throws
   * (OpenApiDocumentError, a configuration error); its authoring errors are `warnings` (openapi-repair.ts), and what
   * openapi-backend's own validation of the repaired document still refuses is listed as warnings too.
   * `repaired: true`: the definitions given are already repaired (the global setup's), nothing is warned again.
   */
  static async load(
    sources: readonly string[],
    options: {
      quick?: boolean
      repaired?: boolean
      definitions?: Record<string, unknown>
      deadlineMs?: number
      maxBytes?: number
    } = {},
  ): Promise<OpenApiContracts> {
    const documents: LoadedDocument[] = []
    const read = await readDocuments(sources, options)
    const definitions: Record<string, unknown> = {}
    const warnings: DocumentWarning[] = []
    for (const [source, raw] of read) {
      const { document: definition, warnings: found } = options.repaired
        ? { document: raw, warnings: [] }
        : repairDocument(source, raw)
      warnings.push(...found)
      definitions[source] = structuredClone(definition)
      withOperationIds(definition)
      // quick: openapi-backend does not refuse the document as a whole; what the OpenAPI schema refuses is listed below
      const api = new Backend({
        definition: structuredClone(definition) as never,
        strict: false,
        validate: true,
        quick: true,
        ignoreTrailingSlashes: false,
        ajvOpts: { strict: false, logger: false, validateSchema: false },
        customizeAjv: sharedAjv(),
      })
      try {
        await api.init()
      } catch (e) {
        throw new OpenApiDocumentError(source, `cannot be loaded: ${String((e as Error).message).slice(0, 600)}`)
      }
      if (!options.quick && !options.repaired) warnings.push(...schemaWarnings(source, definition))
      documents.push({ source, api, routes: routesOf(api), headerValidators: new Map() })
    }
    return new OpenApiContracts(documents, definitions, warnings)
  }

  /** The mismatches of one exchange (none when its path is in no document: the document does not describe it). */
  findings(ex: ExchangeForContract): ContractFinding[] {
    return this.check(ex) ?? []
  }

  /**
   * The mismatches of one exchange, or undefined when no document describes it (nothing was validated).
   * `request: false`: the request is invalid on purpose (a probe; docs/contracts.md), its mismatches are expected.
   */
  check(ex: ExchangeForContract, options: { request?: boolean } = {}): ContractFinding[] | undefined {
    const url = new URL(ex.url)
    const query = Object.fromEntries(url.searchParams.entries())
    const request = {
      method: ex.method.toLowerCase(),
      path: url.pathname,
      query,
      headers: lowerKeys(ex.requestHeaders),
      body: parseBody(ex.requestBody),
    }
    for (const doc of this.documents) {
      const { source, api, routes } = doc
      const route = routes.find((r) => r.method === request.method && r.pattern.test(request.path))
      if (!route) continue
      const op = route.op
      const operation = ex.operationId ?? op.operationId ?? `${op.method.toUpperCase()} ${op.path}`
      const base = `${source}#/paths/${escapePointer(op.path)}/${op.method}`
      const out: ContractFinding[] = []
      const finding = (kind: ContractFindingKind, pointer: string, expected: string, message: string) =>
        out.push({
          operation,
          kind,
          side: kind === 'request' ? 'request' : 'response',
          document: source,
          pointer,
          expected,
          message,
        })
      if (options.request !== false) {
        const req = tryValidate(() => validateRequest(api, route, request))
        for (const e of describe(req.errors))
          finding(
            'request',
            `${base} (${e.schemaPath})`,
            `the request as the operation declares it (${e.schemaPath})`,
            `request ${e.message}`,
          )
      }
      if (ex.status !== undefined) {
        const responses = (op.responses ?? {}) as Record<
          string,
          { content?: Record<string, unknown>; headers?: Record<string, unknown> }
        >
        const declared = Object.keys(responses)
        const code = String(ex.status)
        const key = [code, `${code[0]}XX`, `${code[0]}xx`, 'default'].find((k) => declared.includes(k))
        if (declared.length > 0 && key === undefined) {
          finding(
            'status',
            `${base}/responses`,
            `one of the documented statuses ${declared.join(', ')}`,
            `status ${code} is not documented (${declared.join(', ')})`,
          )
        } else if (key !== undefined) {
          const declaredResponse = responses[key] ?? {}
          const headersPointer = `${base}/responses/${escapePointer(key)}/headers`
          for (const h of headerFindings(doc, headersPointer, declaredResponse.headers, ex.responseHeaders ?? {}))
            finding('response-headers', h.pointer, h.expected, h.message)
          const media = Object.keys(declaredResponse.content ?? {})
          const hasBody = ex.responseBody !== undefined && ex.responseBody !== ''
          const type = mediaTypeOf(ex.contentType)
          if (hasBody && media.length > 0 && !media.some((m) => mediaMatches(m, type))) {
            finding(
              'media-type',
              `${base}/responses/${escapePointer(key)}/content`,
              `a media type the document declares: ${media.join(', ')}`,
              `response Content-Type ${JSON.stringify(type || '(none)')} is not declared (${media.join(', ')})`,
            )
          } else if (hasBody && isJson(ex.contentType) && media.some((m) => isJson(m) || m === '*/*')) {
            const res = tryValidate(() => api.validateResponse(parseBody(ex.responseBody), op, ex.status))
            for (const e of describe(res.errors))
              finding(
                'response',
                `${base}/responses/${escapePointer(key)} (${e.schemaPath})`,
                `a body matching the declared schema (${e.schemaPath})`,
                `response ${e.message}`,
              )
          }
        }
      }
      return out
    }
    return undefined
  }
}

/** openapi-backend's own dependencies (its path-template parser and its cookie parser), as it loads them. */
const fromBackend = createRequire(createRequire(import.meta.url).resolve('openapi-backend'))
const bath = fromBackend('bath-es5') as {
  default: (template: string) => { params: (path: string) => Record<string, string> | null }
}
const cookie = fromBackend('cookie') as { parse: (text: string) => Record<string, string | undefined> }

/**
 * The request's validation, as openapi-backend's `validateRequest(req, operation)` (5.x, validation.js) does it, with
 * its compiled validators, but without its per-call `parseRequest` (router.js), which builds the template's path
 * parser, deep-copies the query and copies the request several times at every call: the path parser and the query
 * parameters by name are kept per operation (Route). Same parameters object, same validators, same order, so the same
 * errors (test/helpers/client/contracts/openapi.test.ts compares the two).
 */
function validateRequest(
  api: OpenAPIBackend,
  route: Route,
  request: {
    method: string
    path: string
    query: Record<string, string>
    headers: Record<string, string>
    body: unknown
  },
): { errors: ErrorObject[] | null } {
  const op = route.op as unknown as {
    operationId?: string
    path: string
    parameters?: Record<string, unknown>[]
    requestBody?: { content?: Record<string, unknown> }
  }
  if (!op.operationId) throw new Error('Unknown operation')
  const validators = (api.validator.getRequestValidatorsForOperation(op.operationId) ?? []) as ValidateFunction[]
  const errors: ErrorObject[] = []
  // parseRequest: the body parsed as JSON where it is a text, the headers by lower-case name, the cookies, a copy of
  // the query
  let requestBody = request.body
  if (request.body && typeof request.body !== 'object') {
    try {
      requestBody = JSON.parse(String(request.body))
    } catch {
      // openapi-backend too keeps the text; a JSON-only operation reports it below
    }
  }
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(request.headers)) headers[k.toLowerCase()] = v
  const cookieHeader = headers.cookie
  const cookies = cookie.parse(cookieHeader === undefined ? '' : String(cookieHeader))
  const query: Record<string, unknown> = { ...request.query }
  route.pathParams ??= bath.default(op.path).params
  const params = route.pathParams(api.router.normalizePath(request.path)) || {}
  for (const name in query) {
    if (!query[name]) continue
    const parameter = (op.parameters ?? []).find((p) => !('$ref' in p) && p?.in === 'query' && p?.name === name)
    if (!parameter) continue
    const content = parameter.content as Record<string, unknown> | undefined
    if (content?.['application/json']) {
      const raw = query[name]
      if (typeof raw === 'string') query[name] = JSON.parse(raw)
    } else if (parameter.explode === false) {
      const raw = query[name]
      if (Array.isArray(raw) && raw.length > 1) continue
      const value = Array.isArray(raw) ? raw[0] : raw
      if (typeof value !== 'string') continue
      let decoded = value.replace(/%2C/g, ',')
      if (parameter.style === 'spaceDelimited') decoded = decoded.replace(/ /g, ',').replace(/%20/g, ',')
      if (parameter.style === 'pipeDelimited') decoded = decoded.replace(/\|/g, ',').replace(/%7C/g, ',')
      query[name] = decoded.split(',')
    }
  }
  // validateRequest: a singular query value becomes an array where the operation's parameter is an array
  if (!route.queryParams) {
    route.queryParams = new Map()
    for (const p of op.parameters ?? [])
      if (p && p.in === 'query' && typeof p.name === 'string' && !route.queryParams.has(p.name))
        route.queryParams.set(p.name, p)
  }
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') continue
    const schema = route.queryParams.get(name)?.schema as Record<string, unknown> | undefined
    if (schema && schema.type === 'array') query[name] = [value]
  }
  const parameters: Record<string, unknown> = { path: params, query, header: headers, cookie: cookies }
  if (typeof request.body !== 'object' && request.body !== undefined) {
    const formats = Object.keys(op.requestBody?.content ?? {})
    if (formats.length === 1 && formats[0] === 'application/json') {
      try {
        JSON.parse(`${String(request.body)}`)
      } catch (e) {
        if (e instanceof Error)
          errors.push({
            keyword: 'parse',
            instancePath: '',
            schemaPath: '#/requestBody',
            params: [] as never,
            message: e.message,
          })
      }
    }
  }
  if (typeof requestBody === 'object' || headers['content-type'] === 'application/json')
    parameters.requestBody = requestBody
  for (const validate of validators) {
    validate(parameters)
    if (validate.errors) errors.push(...validate.errors)
  }
  return { errors: errors.length === 0 ? null : errors }
}

/** A response header as the document declares it (after dereferencing). */
interface DeclaredHeader {
  required?: boolean
  style?: string
  explode?: boolean
  schema?: Record<string, unknown>
  content?: Record<string, { schema?: Record<string, unknown> }>
}

/**
 * A header value as the finding shows it: redacted and neutralised (the one rule, helpers/client/evidence/redact.ts),
 * at most 200 characters.
 */
function shownValue(value: string): string {
  const redacted = runRedactor().text(value)
  return safeText(JSON.stringify(redacted.length > 200 ? `${redacted.slice(0, 200)}…` : redacted))
}

/**
 * The headers the document declares for the answer's status against those that came back (docs/contracts.md
 * "Judging every exchange"): a required header missing, or a value that does not match its schema once parsed by the
 * OpenAPI `simple` style (arrays split on commas; objects `k,v,...`, or `k=v,...` with `explode`; integers, numbers and
 * booleans coerced). `Content-Type` is ignored (OpenAPI: it is the media type's; the media-type kind judges it). A
 * header without a schema (a document warning) is judged by its presence only.
 */
function headerFindings(
  doc: LoadedDocument,
  pointer: string,
  declared: Record<string, unknown> | undefined,
  headers: Record<string, string>,
): { pointer: string; expected: string; message: string }[] {
  if (!declared || typeof declared !== 'object') return []
  const got = lowerKeys(headers)
  const out: { pointer: string; expected: string; message: string }[] = []
  for (const [name, raw] of Object.entries(declared)) {
    if (!raw || typeof raw !== 'object' || name.toLowerCase() === 'content-type') continue
    const h = raw as DeclaredHeader
    const at = `${pointer}/${escapePointer(name)}`
    const value = got[name.toLowerCase()]
    if (value === undefined) {
      if (h.required === true)
        out.push({
          pointer: at,
          expected: `the required header ${name}`,
          message: `response header ${name} is required and missing`,
        })
      continue
    }
    // a value the recorder redacted (Set-Cookie, a secret inside it) is not the target's: its presence is all that is
    // judged
    if (value.includes('[REDACTED')) continue
    const fromContent = h.content ? Object.values(h.content)[0]?.schema : undefined
    const schema = h.schema ?? fromContent
    if (!schema || typeof schema !== 'object') continue
    const validate = headerValidator(doc, at, schema)
    if (!validate) continue
    const parsed = h.schema ? parseSimple(value, schema, h.explode === true) : parseJsonOr(value)
    if (validate(parsed)) continue
    const shown = JSON.stringify(schema).slice(0, 200)
    for (const e of describe(validate.errors)) {
      out.push({
        pointer: `${at} (${e.schemaPath})`,
        expected: `header ${name} matching its schema ${shown}`,
        message: `response header ${name} ${shownValue(value)}: ${e.message}`,
      })
    }
  }
  return out
}

/**
 * The header schema's validator, compiled once per document and pointer (undefined: ajv cannot compile it, nothing is
 * judged).
 */
function headerValidator(
  doc: LoadedDocument,
  at: string,
  schema: Record<string, unknown>,
): ValidateFunction | undefined {
  if (doc.headerValidators.has(at)) return doc.headerValidators.get(at)
  let validate: ValidateFunction | undefined
  try {
    const ajv = createAjv({ logger: false, validateSchema: false })
    ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
    })
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
    for (const f of ['float', 'double']) ajv.addFormat(f, { type: 'number', validate: () => true })
    validate = ajv.compile(schema)
  } catch {
    validate = undefined
  }
  doc.headerValidators.set(at, validate)
  return validate
}

function typesOf(schema: Record<string, unknown> | undefined): string[] {
  const t = schema?.type
  return Array.isArray(t) ? t.map(String) : typeof t === 'string' ? [t] : []
}

/** A primitive header value coerced to the schema's type where it reads as one (integer, number, boolean, null). */
function coerce(text: string, schema: Record<string, unknown> | undefined): unknown {
  const types = typesOf(schema)
  const t = text.trim()
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t))
    return Number(t)
  if (types.includes('boolean') && (t === 'true' || t === 'false')) return t === 'true'
  if (types.includes('null') && t === '') return null
  return t
}

/** A header value parsed by the OpenAPI `simple` style (the only style of headers). */
function parseSimple(value: string, schema: Record<string, unknown>, explode: boolean): unknown {
  const types = typesOf(schema)
  if (types.includes('array') || (types.length === 0 && schema.items)) {
    return value.split(',').map((x) => coerce(x, schema.items as Record<string, unknown> | undefined))
  }
  if (types.includes('object') || (types.length === 0 && schema.properties)) {
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
    const parts = value.split(',').map((x) => x.trim())
    const out: Record<string, unknown> = {}
    if (explode) {
      for (const p of parts) {
        const i = p.indexOf('=')
        const k = i < 0 ? p : p.slice(0, i)
        out[k] = coerce(i < 0 ? '' : p.slice(i + 1), props[k])
      }
    } else {
      for (let i = 0; i + 1 < parts.length; i += 2) out[parts[i]!] = coerce(parts[i + 1]!, props[parts[i]!])
    }
    return out
  }
  return coerce(value, schema)
}

function parseJsonOr(value: string): unknown {
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

/**
 * openapi-backend is CommonJS: under tsx (the CLI) its default export arrives as the module namespace, under vitest as
 * the class.
 */
const Backend = ((OpenAPIBackend as unknown as { default?: typeof OpenAPIBackend }).default ??
  OpenAPIBackend) as typeof OpenAPIBackend

/**
 * Every operation gets an operationId (openapi-backend finds operations by it): `<METHOD> <path>` where the document
 * gives none.
 */
function withOperationIds(doc: Record<string, unknown>): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown>>
  for (const [path, item] of Object.entries(paths)) {
    if (typeof item !== 'object' || item === null) continue
    for (const method of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']) {
      const op = item[method] as Record<string, unknown> | undefined
      if (op && typeof op === 'object' && typeof op.operationId !== 'string')
        op.operationId = `${method.toUpperCase()} ${path}`
    }
  }
}

/** What the OpenAPI schema still refuses in the (repaired) document: warnings with their pointer, at most 20. */
function schemaWarnings(source: string, definition: Record<string, unknown>): DocumentWarning[] {
  const version = String(definition.openapi).startsWith('3.1') ? 3.1 : 3
  let errors: { instancePath?: string; message?: string; params?: unknown }[]
  try {
    const Validator = ((OpenAPISchemaValidator as unknown as { default?: unknown }).default ??
      OpenAPISchemaValidator) as typeof OpenAPISchemaValidator
    errors = new Validator({ version: version as 3 }).validate(definition as never).errors as typeof errors
  } catch (e) {
    return [
      {
        source,
        pointer: '#',
        message: `the OpenAPI schema could not be checked: ${String((e as Error).message).slice(0, 200)}`,
      },
    ]
  }
  return errors.slice(0, 20).map((x) => ({
    source,
    pointer: `#${x.instancePath ?? ''}`,
    message: `the OpenAPI schema refuses it: ${x.message ?? 'invalid'}${x.params ? ` ${JSON.stringify(x.params)}` : ''}`,
  }))
}

/**
 * A schema ajv cannot compile (a document warning the repairs did not foresee) validates nothing rather than stop the
 * run.
 */
function tryValidate(run: () => { errors?: ErrorObject[] | null }): { errors?: ErrorObject[] | null } {
  try {
    return run()
  } catch {
    return { errors: [] }
  }
}

/**
 * A declared media type (`application/json`, `application/*`, `*\/*`, with or without parameters) against the answer's.
 */
function mediaMatches(declared: string, actual: string): boolean {
  const d = declared.split(';')[0]!.trim().toLowerCase()
  if (d === '*/*' || d === actual) return true
  // a structured syntax suffix (RFC 6839): application/schema+json is JSON where application/json is declared (as Prism
  // reads it)
  if (/^[a-z]+\/[a-z0-9.-]+\+(json|xml)$/.test(actual) && d === `${actual.split('/')[0]}/${actual.split('+')[1]}`)
    return true
  if (d.endsWith('/*')) return actual.startsWith(d.slice(0, -1))
  return false
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/([a-z0-9.+-]*\+)?json\b/i.test(contentType ?? '')
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]))
}
