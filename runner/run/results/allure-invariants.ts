import { createHash } from 'node:crypto'
import type { CheckOutcome } from './results'

const md5 = (s: string) => createHash('md5').update(s).digest('hex')

/**
 * A model invariant's outcome (runner/run/results/invariants.ts) as an Allure result: the same entry checks.json and
 * junit.xml carry, with the labels of any check (helpers/checks/check.ts). Not applicable is skipped with its reason;
 * a broken invariant fails with the checks whose answers broke it. `target`: the target's key in a multi-target run.
 */
export function invariantAllureResult(
  c: CheckOutcome,
  uuid: string,
  at: number,
  target?: string,
): Record<string, unknown> {
  const fullName = `${target ? `${target} > ` : ''}${c.file} > ${c.title}`
  const status =
    c.status === 'passed' ? 'passed' : c.status === 'failed' ? 'failed' : c.status === 'errored' ? 'broken' : 'skipped'
  const message = c.status === 'failed' || c.status === 'errored' ? c.error : c.note
  return {
    uuid,
    historyId: md5(fullName),
    testCaseId: md5(fullName),
    name: c.title,
    fullName,
    status,
    statusDetails: message ? { message } : {},
    stage: 'finished',
    start: at,
    stop: at,
    description:
      `**${c.id}** ` +
      `— ${c.document} ${c.section}\n\n${c.requirement}${c.note && c.status !== 'not-applicable' ? `\n\n${c.note}` : ''}`,
    labels: [
      { name: 'specDocument', value: c.document },
      { name: 'specSection', value: c.section },
      { name: 'checkId', value: c.id },
      { name: 'epic', value: c.document },
      { name: 'feature', value: `${c.document} ${c.section}` },
      { name: 'story', value: c.id },
      { name: 'suite', value: c.file },
      ...(target ? [{ name: 'parentSuite', value: target }] : []),
    ],
    parameters: [],
    links: [],
    steps: [],
    attachments: [],
  }
}
