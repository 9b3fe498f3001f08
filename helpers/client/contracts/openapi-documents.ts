import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import type { TargetConfig } from '../../../common/config/types'

/**
 * The target's published OpenAPI documents as JSON (profile field `openapi`: files or URLs), read within a deadline
 * and a size cap, and checked to be OpenAPI 3.0 or 3.1. This module does not load openapi-backend: the global setup
 * reads the embedded reference's own document with it alone (docs/contracts.md "Cost"), and validates any other
 * document with helpers/client/contracts/openapi.ts.
 */

/** A document that cannot be loaded or is not a valid OpenAPI document: a configuration error (exit 2). */
export class OpenApiDocumentError extends Error {
  constructor(
    readonly source: string,
    problem: string,
  ) {
    super(`openapi: ${source}: ${problem}`)
    this.name = 'OpenApiDocumentError'
  }
}

/**
 * `{salesBaseUrl}` / `{webhookBaseUrl}` in a source are the target's base URLs; a relative file is relative to the
 * profile.
 */
export function resolveSource(
  source: string,
  vars: { salesBaseUrl: string; webhookBaseUrl: string; profileDir: string },
): string {
  const filled = source
    .replace(/\{salesBaseUrl\}/g, vars.salesBaseUrl)
    .replace(/\{webhookBaseUrl\}/g, vars.webhookBaseUrl)
  if (/^https?:\/\//i.test(filled)) return filled
  return isAbsolute(filled) ? filled : resolve(vars.profileDir, filled)
}

/** The target's documents as loadable sources ({salesBaseUrl} filled in, files absolute). */
export function openApiSources(config: Pick<TargetConfig, 'openapi' | 'services' | 'profilePath'>): string[] {
  const vars = {
    salesBaseUrl: config.services.salesBaseUrl,
    webhookBaseUrl: config.services.webhookBaseUrl,
    profileDir: dirname(config.profilePath),
  }
  return (config.openapi ?? []).map((s) => resolveSource(s, vars))
}

/**
 * Each source's document as JSON: a copy of the JSON given for it, or the document fetched (a URL, within the deadline
 * and the size cap) or read (a file), JSON or YAML. Throws OpenApiDocumentError naming the source when a document
 * cannot be read, is neither JSON nor YAML, or is not an OpenAPI 3.0 or 3.1 document (a Swagger 2.0 one is named as
 * such). Nothing else about its content stops it: helpers/client/contracts/openapi-repair.ts lists its authoring
 * errors.
 */
export async function readDocuments(
  sources: readonly string[],
  options: { definitions?: Record<string, unknown>; deadlineMs?: number; maxBytes?: number } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const documents = new Map<string, Record<string, unknown>>()
  for (const source of sources) {
    let definition: unknown
    const given = options.definitions?.[source]
    if (typeof given === 'object' && given !== null) {
      definition = structuredClone(given)
    } else if (/^https?:\/\//i.test(source)) {
      definition = parseDocument(
        source,
        await fetchDocument(source, options.deadlineMs ?? 30_000, options.maxBytes ?? 16 * 1024 * 1024),
      )
    } else {
      if (!existsSync(source)) throw new OpenApiDocumentError(source, 'file not found')
      let text: string
      try {
        text = readFileSync(source, 'utf8')
      } catch (e) {
        throw new OpenApiDocumentError(source, `cannot be read (${(e as Error).message})`)
      }
      definition = parseDocument(source, text)
    }
    documents.set(source, openApiDocument(source, definition))
  }
  return documents
}

/** The document when it is OpenAPI 3.0 or 3.1 with paths; else the configuration error that says what it is. */
export function openApiDocument(source: string, definition: unknown): Record<string, unknown> {
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition))
    throw new OpenApiDocumentError(source, 'is not an OpenAPI document (not an object)')
  const doc = definition as Record<string, unknown>
  if (doc.swagger !== undefined) {
    throw new OpenApiDocumentError(
      source,
      `is a Swagger ${String(doc.swagger)} document; the suite reads OpenAPI 3.0 and 3.1: convert it first (e.g. npx ` +
        `swagger2openapi ${source} -o openapi.json)`,
    )
  }
  const version = doc.openapi
  if (typeof version !== 'string' || !/^3\.[01]\.\d+$/.test(version)) {
    throw new OpenApiDocumentError(
      source,
      `is not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(version ?? null)})`,
    )
  }
  if ((typeof doc.paths !== 'object' || doc.paths === null || Array.isArray(doc.paths)) && doc.webhooks === undefined) {
    throw new OpenApiDocumentError(source, 'is not an OpenAPI document: it has no paths object')
  }
  return doc
}

/** The parsed JSON of the documents that are JSON, by source (what the workers are handed). */
export function definitionsOf(documents: Map<string, unknown>): Record<string, unknown> {
  return Object.fromEntries([...documents].map(([s, d]) => [s, structuredClone(d)]))
}

/**
 * A document by URL, within a deadline and a size cap (a target that never answers, or answers without end, is a
 * clear configuration error, not a hang or a full memory: docs/reliability.md).
 */
async function fetchDocument(source: string, deadlineMs: number, maxBytes: number): Promise<string> {
  const signal = AbortSignal.timeout(deadlineMs)
  let text = ''
  try {
    const res = await fetch(source, {
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
      signal,
    })
    if (!res.ok) {
      await res.body?.cancel()
      throw new OpenApiDocumentError(source, `cannot be fetched (HTTP ${res.status})`)
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of res.body ?? []) {
      size += (chunk as Uint8Array).byteLength
      if (size > maxBytes) {
        await res.body?.cancel().catch(() => undefined)
        throw new OpenApiDocumentError(source, `is larger than ${maxBytes} bytes (http.maxResponseBytes)`)
      }
      chunks.push(Buffer.from(chunk as Uint8Array))
    }
    text = Buffer.concat(chunks).toString('utf8')
  } catch (e) {
    if (e instanceof OpenApiDocumentError) throw e
    if (signal.aborted)
      throw new OpenApiDocumentError(source, `cannot be fetched (no complete answer within ${deadlineMs} ms)`)
    throw new OpenApiDocumentError(source, `cannot be fetched (${(e as Error).message})`)
  }
  return text
}

/** JSON, else YAML (a superset: a JSON text with an error is reported as JSON's error). */
function parseDocument(source: string, text: string): unknown {
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text)
    } catch (e) {
      throw new OpenApiDocumentError(source, `is not JSON (${(e as Error).message})`)
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: 1000 })
  } catch (e) {
    throw new OpenApiDocumentError(source, `is neither JSON nor YAML (${String((e as Error).message).split('\n')[0]})`)
  }
}
