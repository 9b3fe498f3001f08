import { coverage, type CitingCheck, type RequirementsIndex } from '../../../common/requirements'

/** "SEC-NOTOKEN-sales.quote.create, SEC-NOTOKEN-..." shortened to at most `max` ids, then "and N more". */
function idList(ids: string[], max: number): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`
}

/**
 * `ledger-conformance list --requirements`: the requirements of both documents the suite checks, each with its
 * section, the paraphrase and the checks that cover it (from the catalogue when given, else the id prefixes).
 */
export function requirementsView(
  index: RequirementsIndex,
  checks?: readonly CitingCheck[],
  o: { allIds?: boolean } = {},
): string {
  const covered = checks ? coverage(index, checks) : undefined
  const lines: string[] = []
  for (const [file, doc] of Object.entries(index.documents)) {
    const reqs = index.requirements.filter((r) => r.document === file)
    lines.push(`${file}: ${doc.title}`)
    for (const r of reqs) {
      lines.push(`  ${r.id}  ${file} ${r.section}`)
      lines.push(`    ${r.paraphrase}`)
      const ids = covered?.get(r.id)
      lines.push(
        ids
          ? `    checks (${ids.length}): ${idList(ids, o.allIds ? Infinity : 8)}`
          : `    checks: ${r.checks.map((p) => `${p}*`).join(', ')}`,
      )
    }
    lines.push('')
  }
  lines.push(
    'Citations ("sales-service.md §4") name a section of the two specification documents, which the service owners',
  )
  lines.push('publish with the services; they are not part of this package (README "The specifications it checks").')
  return lines.join('\n')
}
