/** The lines that list the authoring errors of the profile's OpenAPI documents (console, validate, Markdown). */
export function documentWarningLines(
  warnings: ReadonlyArray<{ source: string; pointer: string; message: string }>,
): string[] {
  if (warnings.length === 0) return []
  const out = [`document warnings (${warnings.length}; the run goes on, they never fail it; docs/contracts.md):`]
  for (const w of warnings) out.push(`  WARNING ${w.source}${w.pointer}: ${w.message}`)
  return out
}
