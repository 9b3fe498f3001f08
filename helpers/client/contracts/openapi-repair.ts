import { escapePointerToken as escape } from '../data/json-pointer'
/**
 * Lenient loading of a published OpenAPI document (docs/contracts.md "Document warnings"): the authoring errors real
 * documents carry (a type that is not a JSON Schema type, a parameter without a schema, a `$ref` to a component that
 * does not exist, a format no validator knows) do not stop the run. Each becomes a *document warning* with its JSON
 * pointer, and the document is repaired in a copy so that everything else in it is validated: a known alias is
 * mapped to what it plainly means (`bool` -> boolean, `date` -> string with format date), anything else is dropped
 * (the part it constrained is then not checked: it is listed, never silently passed). Pure: no I/O, no state.
 */

/** One authoring error of a document: where (JSON pointer into the document), what, and what the suite did about it. */
export interface DocumentWarning {
  source: string
  /** JSON pointer into the document as written, e.g. `#/paths/~1a/get/parameters/0`. */
  pointer: string
  message: string
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])

/** Type names authors use that are not JSON Schema types, and the schema they plainly mean. */
const TYPE_ALIASES: Record<string, { type: string; format?: string }> = {
  bool: { type: 'boolean' },
  int: { type: 'integer' },
  long: { type: 'integer', format: 'int64' },
  float: { type: 'number' },
  double: { type: 'number' },
  decimal: { type: 'number' },
  str: { type: 'string' },
  date: { type: 'string', format: 'date' },
  'date-time': { type: 'string', format: 'date-time' },
  datetime: { type: 'string', format: 'date-time' },
  timestamp: { type: 'string', format: 'date-time' },
  uuid: { type: 'string', format: 'uuid' },
  file: { type: 'string', format: 'binary' },
}

/**
 * The formats the suite validates (ajv-formats' and the OpenAPI ones openapi-backend adds); any other is a warning and
 * not checked.
 */
export const KNOWN_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
])

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Resolves a local `$ref` (`#/components/...`) in the document; undefined when it names nothing. */
function resolveLocal(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined
  let node: unknown = doc
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isObject(node) && !Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[key]
    if (node === undefined) return undefined
  }
  return node
}

/**
 * A repaired copy of the document and the warnings about it. The document must already be known to be OpenAPI 3.x
 * (an object with an `openapi` version); this never throws.
 */
export function repairDocument(
  source: string,
  document: Record<string, unknown>,
): { document: Record<string, unknown>; warnings: DocumentWarning[] } {
  const doc = structuredClone(document)
  const warnings: DocumentWarning[] = []
  const warn = (pointer: string, message: string) => warnings.push({ source, pointer, message })
  const is30 = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.0')

  /** A `$ref` that names nothing: the holder gets `fallback` in its place. Returns whether the ref was dangling. */
  const dangling = (node: Record<string, unknown>, pointer: string): boolean => {
    const ref = node.$ref
    if (typeof ref !== 'string') return false
    // an external reference: json-schema-ref-parser resolves it, or the load says why
    if (!ref.startsWith('#')) return false
    if (resolveLocal(doc, ref) !== undefined) return false
    warn(pointer, `$ref ${JSON.stringify(ref)} names nothing in the document; the part is not validated`)
    return true
  }

  const schema = (node: unknown, pointer: string): unknown => {
    if (!isObject(node)) return node
    if (dangling(node, pointer)) return {}
    if (typeof node.$ref === 'string') return node
    const t = node.type
    const fixType = (name: string, at: string): { type?: string; format?: string } => {
      if (JSON_TYPES.has(name)) {
        if (name === 'null' && is30)
          warn(at, `type "null" is not an OpenAPI 3.0 type (3.0 says nullable: true); read as JSON Schema's null`)
        return { type: name }
      }
      const alias = TYPE_ALIASES[name.toLowerCase()]
      if (alias) {
        warn(
          at,
          `type ${JSON.stringify(name)} is not a JSON Schema type; read ` +
            `as ${JSON.stringify(alias.type)}${alias.format ? ` with format ${JSON.stringify(alias.format)}` : ''}`,
        )
        return alias
      }
      warn(at, `type ${JSON.stringify(name)} is not a JSON Schema type; the type is not validated`)
      return {}
    }
    if (typeof t === 'string') {
      const fixed = fixType(t, `${pointer}/type`)
      if (fixed.type === undefined) delete node.type
      else node.type = fixed.type
      if (fixed.format && node.format === undefined) node.format = fixed.format
    } else if (Array.isArray(t)) {
      const types = t
        .map((x, i) => (typeof x === 'string' ? fixType(x, `${pointer}/type/${i}`).type : undefined))
        .filter((x): x is string => x !== undefined)
      if (types.length === 0) delete node.type
      else node.type = [...new Set(types)]
    } else if (t !== undefined) {
      warn(`${pointer}/type`, `type ${JSON.stringify(t)} is not a JSON Schema type; the type is not validated`)
      delete node.type
    }
    if (node.format !== undefined && (typeof node.format !== 'string' || !KNOWN_FORMATS.has(node.format))) {
      warn(
        `${pointer}/format`,
        `format ${JSON.stringify(node.format)} is not one the suite knows; the format is not validated`,
      )
      delete node.format
    }
    if (node.required !== undefined && !Array.isArray(node.required)) {
      warn(
        `${pointer}/required`,
        `required ${JSON.stringify(node.required)} is not a list of property names (a parameter's required inside a ` +
          `schema?); ignored`,
      )
      delete node.required
    }
    for (const key of ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']) {
      const props = node[key]
      if (isObject(props))
        for (const [k, v] of Object.entries(props)) props[k] = schema(v, `${pointer}/${key}/${escape(k)}`)
    }
    for (const key of [
      'items',
      'additionalProperties',
      'not',
      'contains',
      'propertyNames',
      'if',
      'then',
      'else',
      'unevaluatedProperties',
      'unevaluatedItems',
      'additionalItems',
    ]) {
      if (isObject(node[key])) node[key] = schema(node[key], `${pointer}/${key}`)
    }
    for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
      const list = node[key]
      if (Array.isArray(list)) node[key] = list.map((v, i) => schema(v, `${pointer}/${key}/${i}`))
      if (Array.isArray(node.items))
        node.items = (node.items as unknown[]).map((v, i) => schema(v, `${pointer}/items/${i}`))
    }
    return node
  }

  const content = (node: unknown, pointer: string) => {
    if (!isObject(node)) return
    for (const [media, m] of Object.entries(node)) {
      if (isObject(m) && m.schema !== undefined) m.schema = schema(m.schema, `${pointer}/${escape(media)}/schema`)
    }
  }

  /** A parameter or a header object; returns undefined to drop it (a `$ref` that names nothing). */
  const parameter = (node: unknown, pointer: string, header = false): unknown => {
    if (!isObject(node)) return node
    if (dangling(node, pointer)) return undefined
    if (typeof node.$ref === 'string') return node
    if (node.schema === undefined && node.content === undefined) {
      warn(
        pointer,
        `${header ? 'header' : `parameter ${JSON.stringify(node.name ?? '?')}`} has neither schema nor content; only ` +
          `its presence is validated`,
      )
      node.schema = {}
    }
    if (node.schema !== undefined) node.schema = schema(node.schema, `${pointer}/schema`)
    content(node.content, `${pointer}/content`)
    return node
  }

  const parameters = (holder: Record<string, unknown>, pointer: string) => {
    if (!Array.isArray(holder.parameters)) return
    const kept: unknown[] = []
    holder.parameters.forEach((p, i) => {
      const fixed = parameter(p, `${pointer}/parameters/${i}`)
      if (fixed !== undefined) kept.push(fixed)
    })
    holder.parameters = kept
  }

  const headers = (node: unknown, pointer: string) => {
    if (!isObject(node)) return
    for (const [name, h] of Object.entries(node)) {
      const fixed = parameter(h, `${pointer}/${escape(name)}`, true)
      if (fixed === undefined) delete node[name]
      else node[name] = fixed
    }
  }

  const body = (node: unknown, pointer: string): unknown => {
    if (!isObject(node)) return node
    if (dangling(node, pointer)) return undefined
    content(node.content, `${pointer}/content`)
    headers(node.headers, `${pointer}/headers`)
    return node
  }

  const components = isObject(doc.components) ? doc.components : {}
  if (isObject(components.schemas))
    for (const [k, v] of Object.entries(components.schemas))
      components.schemas[k] = schema(v, `#/components/schemas/${escape(k)}`)
  if (isObject(components.parameters))
    for (const [k, v] of Object.entries(components.parameters))
      components.parameters[k] = parameter(v, `#/components/parameters/${escape(k)}`) ?? {
        name: k,
        in: 'query',
        schema: {},
      }
  if (isObject(components.headers)) headers(components.headers, '#/components/headers')
  for (const kind of ['requestBodies', 'responses'] as const) {
    const group = components[kind]
    if (isObject(group))
      for (const [k, v] of Object.entries(group)) group[k] = body(v, `#/components/${kind}/${escape(k)}`) ?? {}
  }

  if (isObject(doc.paths)) {
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!isObject(item)) continue
      const at = `#/paths/${escape(path)}`
      parameters(item, at)
      for (const method of METHODS) {
        const op = item[method]
        if (!isObject(op)) continue
        parameters(op, `${at}/${method}`)
        if (op.requestBody !== undefined) {
          const rb = body(op.requestBody, `${at}/${method}/requestBody`)
          if (rb === undefined) delete op.requestBody
          else op.requestBody = rb
        }
        if (isObject(op.responses)) {
          for (const [code, r] of Object.entries(op.responses)) {
            const fixed = body(r, `${at}/${method}/responses/${escape(code)}`)
            op.responses[code] = fixed ?? { description: 'a $ref that names nothing' }
          }
        }
      }
    }
  }
  return { document: doc, warnings }
}
