/** A small valid PDF (one page, Helvetica text lines) with a correct xref table. */
export function tinyPdf(title: string, lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1')
  const text = [title, ...lines]
    .map((l, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 56 ${780 - i * 20} Td (${esc(l)}) Tj ET`)
    .join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets
    .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
    .join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

/**
 * The same content as another producer would write it (the pdf-other-producer variation): PDF 1.7 with a binary
 * comment line, CRLF line ends, an /Info dictionary, the text split over several operators (TJ arrays with kerning) on
 * two pages, and a cross-reference stream (ISO 32000-1 §7.5.8, unfiltered, /W [1 4 2]) instead of a table.
 */
export function otherProducerPdf(title: string, lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1')
  const split = (s: string) => {
    const half = Math.ceil(s.length / 2)
    return `[(${esc(s.slice(0, half))}) -12 (${esc(s.slice(half))})] TJ`
  }
  const page1 = [
    `BT /F1 18 Tf 72 770 Td ${split(title)} ET`,
    ...lines.map((l, i) => `BT /F1 10 Tf 72 ${740 - i * 16} Td ${split(l)} ET`),
  ].join('\r\n')
  const page2 = `BT /F1 10 Tf 72 770 Td (${esc(`${title}: conditions`)}) Tj ET`
  const bodies = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 7 0 R >> >> >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R /Resources << /Font << /F1 7 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(page1, 'latin1')} >>\r\nstream\r\n${page1}\r\nendstream`,
    `<< /Length ${Buffer.byteLength(page2, 'latin1')} >>\r\nstream\r\n${page2}\r\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>',
    '<< /Producer (Other Producer 2.3) /Creator (ledger reference) >>',
  ]
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\r\n%\xe2\xe3\xcf\xd3\r\n', 'latin1')]
  const size = () => chunks.reduce((n, c) => n + c.length, 0)
  const offsets: number[] = []
  bodies.forEach((body, i) => {
    offsets.push(size())
    chunks.push(Buffer.from(`${i + 1} 0 obj\r\n${body}\r\nendobj\r\n`, 'latin1'))
  })
  // the cross-reference stream is object n+1: one entry per object 0..n+1, type (1 byte), offset (4), generation (2)
  const xrefNo = bodies.length + 1
  const xrefAt = size()
  const entries = Buffer.alloc(7 * (xrefNo + 1))
  entries.writeUInt8(0, 0)
  entries.writeUInt32BE(0, 1)
  entries.writeUInt16BE(65535, 5)
  ;[...offsets, xrefAt].forEach((o, i) => {
    entries.writeUInt8(1, 7 * (i + 1))
    entries.writeUInt32BE(o, 7 * (i + 1) + 1)
    entries.writeUInt16BE(0, 7 * (i + 1) + 5)
  })
  chunks.push(
    Buffer.from(
      `${xrefNo} 0 obj\r\n<< /Type /XRef /Size ${xrefNo + 1} /W [1 4 2] /Root 1 0 R /Info 8 0 R ` +
        `/Length ${entries.length} >>\r\nstream\r\n`,
      'latin1',
    ),
  )
  chunks.push(entries)
  chunks.push(Buffer.from(`\r\nendstream\r\nendobj\r\nstartxref\r\n${xrefAt}\r\n%%EOF\r\n`, 'latin1'))
  return Buffer.concat(chunks)
}
