import { createHash } from 'node:crypto'

/**
 * Documents opened as what they claim to be (issue 42). A generated or downloaded document is parsed by a well-kept
 * library for its kind, so a check or a rule of the model can judge what is inside: is it complete and well-formed,
 * how many pages, what does its text say. A kind the suite cannot parse is said to be unjudged, never passed.
 *
 * PDF: pdfjs-dist (Mozilla's PDF.js, the parser of Firefox), chosen over pdf-lib because it extracts the text (pdf-lib
 * writes and edits documents; it reads no text), and because with `stopAtErrors` it refuses a file whose structure is
 * broken instead of repairing it. Its reconstruction of a lost cross-reference table still opens some damaged files, so
 * the file's own trailer is read as well (ISO 32000-1 §7.5.5: `startxref`, the offset of the last cross-reference
 * section, and `%%EOF`). The module is loaded on the first PDF only (a run without documents never pays for it).
 */

/** The parser and its version, as the docs name them. */
export const PDF_PARSER = 'pdfjs-dist 5.6.205'

export interface OpenedDocument {
  /** The media type the answer claims (without parameters), or 'application/pdf' for a body that starts %PDF-. */
  mediaType: string
  /** False when the suite has no parser for this media type: nothing below was judged. */
  judged: boolean
  /** The parser that read it (judged documents). */
  parser?: string
  /** Pages, when it opened. */
  pages?: number
  /** The text of every page, pages separated by a line break (judged documents that opened). */
  text?: string
  /** What is wrong with it as a file of its kind: empty when it is complete and well-formed. */
  problems: string[]
  /** Why a document of a kind the suite parses was not judged after all (the parser did not finish). */
  unjudgedBecause?: string
}

/** The media type of a Content-Type header, without parameters, lower case ('' when there is none). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase()
}

/** The media types the suite parses. */
export const PARSED_MEDIA_TYPES = ['application/pdf'] as const

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1')

/** Whether this answer is a document the suite should open: a PDF by its media type or by its first bytes. */
export function documentKind(raw: Buffer, mediaType: string): 'pdf' | undefined {
  if (mediaType === 'application/pdf') return 'pdf'
  if (raw.subarray(0, 5).equals(PDF_MAGIC)) return 'pdf'
  return undefined
}

/**
 * The file trailer of a PDF (ISO 32000-1 §7.5.5): the last `startxref` gives the byte offset of the last
 * cross-reference section, which is a table (`xref`) or a cross-reference stream (`N G obj` ... `/Type /XRef`), and
 * the file ends with `%%EOF` (white space after it allowed). Returns the problems found.
 */
export function pdfTrailerProblems(raw: Buffer): string[] {
  const problems: string[] = []
  if (!raw.subarray(0, 5).equals(PDF_MAGIC)) problems.push('it does not start with %PDF-')
  const tail = raw.subarray(Math.max(0, raw.length - 1024)).toString('latin1')
  if (!/%%EOF\s*$/.test(tail)) problems.push('it does not end with %%EOF (the file is cut short)')
  const at = tail.lastIndexOf('startxref')
  if (at < 0) {
    problems.push('it has no startxref (no file trailer)')
    return problems
  }
  const m = /^startxref\s+(\d+)/.exec(tail.slice(at))
  if (!m) {
    problems.push('its startxref gives no offset')
    return problems
  }
  const offset = Number(m[1])
  const section = offset < raw.length ? raw.subarray(offset, offset + 256).toString('latin1') : ''
  const isTable = section.startsWith('xref')
  const isStream = /^\d+\s+\d+\s+obj\b[\s\S]*\/Type\s*\/XRef\b/.test(section)
  if (!isTable && !isStream) problems.push(`its startxref offset ${offset} points at no cross-reference section`)
  return problems
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs')
/**
 * The library, loaded once per process with its worker module on the main thread (`globalThis.pdfjsWorker`: PDF.js
 * then sets up no "fake worker" of its own by a dynamic import, which could hang when several documents were opened
 * at once in a test worker), and a queue: one document is parsed at a time (parsing is CPU work; nothing is gained
 * by interleaving). Process-wide, like the library's own state.
 */
let pdfjs: Promise<PdfJs> | undefined
let queue: Promise<unknown> = Promise.resolve()
/** A parse that takes longer than this is the suite's problem, not the target's: the document is left unjudged. */
export const PARSE_DEADLINE_MS = 20_000

function library(): Promise<PdfJs> {
  pdfjs ??= keepingBuiltins(async () => {
    // the minified builds: the same code in half the text, which V8 parses in 20-30 ms less CPU at each start
    // (docs/performance.md); they ship no type declarations: typed as the library's own module
    const workerModule = 'pdfjs-dist/legacy/build/pdf.worker.min.mjs'
    const worker: unknown = await import(workerModule)
    ;(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker
    const libraryModule = 'pdfjs-dist/legacy/build/pdf.min.mjs'
    return (await import(libraryModule)) as PdfJs
  })
  return pdfjs
}

/**
 * The built-in objects whose members the legacy build's polyfills (core-js, bundled in both of its modules) may
 * replace when they are loaded.
 */
const BUILTINS: object[] = [
  ...[JSON, Object, Object.prototype, Function.prototype, Array, Array.prototype, String, String.prototype],
  ...[Number, Math],
  ...[Promise, Promise.prototype, Map.prototype, Set.prototype, WeakMap.prototype, RegExp.prototype, Date.prototype],
  ...[Reflect, ArrayBuffer.prototype, Uint8Array, Uint8Array.prototype],
  ...[Object.getPrototypeOf(Uint8Array) as object, Object.getPrototypeOf(Uint8Array.prototype) as object],
]

/**
 * Loads the library and then puts back every member of a built-in it replaced, keeping what it added. The legacy
 * build (the one for Node) replaces, for the whole thread and for good, members that Node has but that fail one of
 * core-js's feature tests on Node 20: `JSON.stringify` (no `JSON.rawJSON`) and `JSON.parse`, `Array.prototype.push`
 * (an array longer than 2^32), `Function.prototype.toString`. Each call of them then runs through JavaScript (a
 * replacer function per value for `stringify`, twice: both modules wrap it), and every JSON text and every `push` of
 * the worker after its first document paid for it: 0.5-1 CPU s of a full run (docs/performance.md). PDF.js needs
 * none of what these tests probe; what it lacks on Node 20 (`Promise.withResolvers`, `Uint8Array.prototype.toHex`,
 * `Map.prototype.getOrInsert`...) it adds, and that is kept.
 */
export async function keepingBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const saved = BUILTINS.map((o) => new Map(Reflect.ownKeys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)!])))
  try {
    return await load()
  } finally {
    BUILTINS.forEach((o, i) => {
      for (const [k, before] of saved[i]!) {
        const now = Object.getOwnPropertyDescriptor(o, k)
        const same = now !== undefined && now.value === before.value && now.get === before.get && now.set === before.set
        if (same) continue
        try {
          Object.defineProperty(o, k, before)
        } catch {
          // a member made read-only since: left as it is
        }
      }
    })
  }
}

/** Runs one parse after the ones before it, within the deadline (undefined past it). */
function queued<T>(parse: () => Promise<T>): Promise<T | undefined> {
  const run = queue.then(() => {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), PARSE_DEADLINE_MS)
      timer.unref()
    })
    return Promise.race([parse(), deadline]).finally(() => clearTimeout(timer))
  })
  queue = run.catch(() => undefined)
  return run
}

/** Opens a PDF with pdfjs-dist: its pages and text, or the parser's refusal. */
async function readPdf(raw: Buffer): Promise<{ pages?: number; text?: string; problem?: string }> {
  const lib = await library()
  const task = lib.getDocument({
    data: new Uint8Array(raw),
    stopAtErrors: true,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  })
  try {
    const doc = await task.promise
    const texts: string[] = []
    for (let n = 1; n <= doc.numPages; n += 1) {
      const page = await doc.getPage(n)
      const content = await page.getTextContent()
      texts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '))
    }
    return { pages: doc.numPages, text: texts.join('\n') }
  } catch (e) {
    return { problem: `it does not open as a PDF (${PDF_PARSER}: ${(e as Error).message})` }
  } finally {
    await task.destroy()
  }
}

type PdfRead = Awaited<ReturnType<typeof readPdf>>

/**
 * What the parser read from each distinct file, by its SHA-256 (the last PARSED_KEPT): a run downloads the same
 * document several times (each check that reads it, each re-read of a view), and what PDF.js reads depends on the bytes
 * only. A parse that did not finish within its deadline is not kept.
 */
const parsed = new Map<string, Promise<PdfRead | undefined>>()
const PARSED_KEPT = 64

function parsedOnce(raw: Buffer): Promise<PdfRead | undefined> {
  const key = `${raw.length}:${createHash('sha256').update(raw).digest('base64')}`
  const known = parsed.get(key)
  if (known) return known
  const read = queued(() => readPdf(raw))
  parsed.set(key, read)
  read.then(
    (r) => r === undefined && parsed.delete(key),
    () => parsed.delete(key),
  )
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!)
  return read
}

/** Opens a document answer as what it claims to be; never throws. */
export async function openDocument(raw: Buffer, mediaType: string): Promise<OpenedDocument> {
  const kind = documentKind(raw, mediaType)
  if (kind === undefined) return { mediaType, judged: false, problems: [] }
  const claimed = mediaType === '' ? 'application/pdf' : mediaType
  const read = await parsedOnce(raw)
  if (read === undefined)
    return {
      mediaType: claimed,
      judged: false,
      problems: [],
      unjudgedBecause: `${PDF_PARSER} did not finish within ${PARSE_DEADLINE_MS} ms`,
    }
  const problems = pdfTrailerProblems(raw)
  if (read.problem) problems.push(read.problem)
  else if ((read.pages ?? 0) < 1) problems.push('it has no page')
  return {
    mediaType: claimed,
    judged: true,
    parser: PDF_PARSER,
    ...(read.pages !== undefined ? { pages: read.pages } : {}),
    ...(read.text !== undefined ? { text: read.text } : {}),
    problems,
  }
}
