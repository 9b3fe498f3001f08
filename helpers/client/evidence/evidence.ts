import * as allure from 'allure-js-commons'
import { safeValue } from './neutralise'
import { runRedactor, safeText } from './redact'

/**
 * The only ways a check prints or attaches data that came from the target (or was built from it): through the
 * run's redactor, with control characters escaped. Suites never call console.* or allure.attachment with target
 * data directly.
 */

/** A value as pretty JSON, redacted (secret keys, the run's secrets in any encoding, JWTs). */
export function redactedJson(value: unknown): string {
  return JSON.stringify(safeValue(runRedactor().json(value ?? null)), null, 2) ?? 'null'
}

/** Attaches a value (JSON) or a text to the running check's report, redacted. */
export async function attachEvidence(
  name: string,
  value: unknown,
  contentType: 'application/json' | 'text/plain' | 'text/html' = 'application/json',
): Promise<void> {
  const text = contentType === 'application/json' ? redactedJson(value) : safeText(String(value))
  await allure.attachment(safeText(name), text, contentType)
}
