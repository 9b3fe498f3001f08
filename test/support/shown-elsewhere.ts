/**
 * Checks of an area's suites that another proof file shows failing (its defects are of another catalogue): an area
 * proof's "every check is shown failing" counts them, and names the file that does.
 */
export const SHOWN_ELSEWHERE: Record<string, string> = {
  // issue 42: the notifications' data against their event type's example (reference/defects/content.ts)
  'WH-DLV-011': 'test/content/content-defects.proof.test.ts',
}
