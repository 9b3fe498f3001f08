/**
 * The label through which a check's skip reason (not applicable, blocked) reaches its Allure result: the results
 * writer (runner/vitest/allure-reporter.ts) makes it the skipped result's status message and drops the label,
 * since Allure's runtime API cannot set a status message itself.
 */
export const SKIP_REASON_LABEL = 'lc.skipReason'
