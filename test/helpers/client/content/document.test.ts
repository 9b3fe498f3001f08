import { describe, expect, it } from 'vitest'
import {
  documentKind,
  keepingBuiltins,
  openDocument,
  pdfTrailerProblems,
  PDF_PARSER,
} from '../../../../helpers/client/content/document'
import { otherProducerPdf, tinyPdf } from '../../../../reference/sales/pdf'

/** The thread's built-ins before any document is opened. */
const natives = {
  stringify: JSON.stringify,
  parse: JSON.parse,
  push: Array.prototype.push,
  toString: Function.prototype.toString,
}

const pdf = tinyPdf('Quote 100123 (home)', ['Premium: 500.00 EUR'])

describe('documents opened as what they claim to be', () => {
  it('a PDF is known by its media type or by its first bytes; anything else is not parsed', () => {
    expect(documentKind(pdf, 'application/pdf')).toBe('pdf')
    expect(documentKind(pdf, 'application/octet-stream')).toBe('pdf')
    expect(documentKind(Buffer.from('PK\x03\x04'), 'application/zip')).toBeUndefined()
  })

  it('reads the file trailer: startxref pointing at a cross-reference table or stream, then %%EOF', () => {
    expect(pdfTrailerProblems(pdf)).toEqual([])
    expect(pdfTrailerProblems(otherProducerPdf('Quote 1', ['x']))).toEqual([])
    expect(pdfTrailerProblems(pdf.subarray(0, pdf.lastIndexOf('startxref')))).toEqual([
      'it does not end with %%EOF (the file is cut short)',
      'it has no startxref (no file trailer)',
    ])
    const moved = Buffer.from(
      pdf.toString('latin1').replace(/startxref\n(\d+)/, (_m, n: string) => `startxref\n${Number(n) - 7}`),
      'latin1',
    )
    expect(pdfTrailerProblems(moved)).toEqual([expect.stringMatching(/points at no cross-reference section/)])
    expect(pdfTrailerProblems(Buffer.from('<html>%%EOF'))).toContain('it does not start with %PDF-')
  })

  it('opens a PDF: pages and text, by the named parser', async () => {
    const opened = await openDocument(pdf, 'application/pdf')
    expect(opened).toMatchObject({ judged: true, parser: PDF_PARSER, pages: 1, problems: [] })
    expect(opened.text).toContain('Quote 100123 (home)')
    const other = await openDocument(
      otherProducerPdf('Quote 100124 (travel)', ['Premium: 1.00 EUR']),
      'application/pdf',
    )
    expect(other).toMatchObject({ judged: true, pages: 2, problems: [] })
    expect(other.text).toContain('100124')
  })

  it('a PDF cut short is a problem of the file, named by the trailer and the parser', async () => {
    const cut = await openDocument(pdf.subarray(0, pdf.length - 60), 'application/pdf')
    expect(cut.judged).toBe(true)
    expect(cut.problems.join('; ')).toMatch(/cut short[\s\S]*does not open as a PDF/)
  })

  it('a media type the suite has no parser for is unjudged, never passed', async () => {
    expect(
      await openDocument(
        Buffer.from('PK\x03\x04 docx'),
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ),
    ).toEqual({
      mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      judged: false,
      problems: [],
    })
  })

  it('several documents opened at once are each judged (one parse at a time)', async () => {
    const all = await Promise.all(
      [1, 2, 3, 4].map((i) => openDocument(tinyPdf(`Quote ${100200 + i}`, ['x']), 'application/pdf')),
    )
    expect(all.map((d) => d.text?.includes(String(100200 + all.indexOf(d) + 1)))).toEqual([true, true, true, true])
  })

  it(
    "the parser leaves the thread's built-ins as they were: its polyfills replace none of them, and what it adds is " +
      'kept',
    async () => {
      await openDocument(tinyPdf('Quote 100300', ['x']), 'application/pdf')
      expect({
        stringify: JSON.stringify,
        parse: JSON.parse,
        push: Array.prototype.push,
        toString: Function.prototype.toString,
      }).toEqual(natives)
      expect(typeof (Promise as { withResolvers?: unknown }).withResolvers).toBe('function')
    },
  )

  it('keepingBuiltins puts back a replaced member of a built-in and keeps an added one', async () => {
    const push = Array.prototype.push
    const added = Symbol('added')
    await keepingBuiltins(async () => {
      Array.prototype.push = function (...items: unknown[]) {
        return push.apply(this, items)
      }
      ;(JSON as unknown as Record<symbol, number>)[added] = 1
    })
    expect(Array.prototype.push).toBe(push)
    expect((JSON as unknown as Record<symbol, number>)[added]).toBe(1)
    delete (JSON as unknown as Record<symbol, number>)[added]
  })

  it(
    'the same bytes opened again read the same (parsed once); a document differing by one byte is read for ' + 'itself',
    async () => {
      const first = await openDocument(pdf, 'application/pdf')
      expect(await openDocument(Buffer.from(pdf), 'application/pdf')).toEqual(first)
      const changed = Buffer.from(pdf.toString('latin1').replace('Quote 100123', 'Quote 100124'), 'latin1')
      const other = await openDocument(changed, 'application/pdf')
      expect(other.text).toContain('Quote 100124')
      expect(other.text).not.toContain('Quote 100123')
    },
  )
})
