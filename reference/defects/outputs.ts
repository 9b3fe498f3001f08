import type { DefectInfo } from './types'

/**
 * Outputs of the services a client cannot use (issue #37, item 7): a JSON number beyond the range of a double, which
 * every standard parser reads as Infinity. Each is caught by the model's finite-numbers invariant (SL-INV-080,
 * WH-INV-080; helpers/oracle/finite-numbers.ts), judged on every answer; proof:
 * test/model/outputs-defects.proof.test.ts.
 */
export const OUTPUTS_DEFECTS = {
  'outputs-calculation-total-not-finite': {
    area: 'sales',
    clause: 'sales-service.md §1',
    description: 'The calculation answer sends its total as the literal 1e999 (read as Infinity).',
  },
  'outputs-event-example-not-finite': {
    area: 'webhooks',
    clause: 'webhook-subscriptions.md §4',
    description: 'The event types list sends a number of an example payload as the literal -1e999 (read as -Infinity).',
  },
} as const satisfies Record<string, DefectInfo>
