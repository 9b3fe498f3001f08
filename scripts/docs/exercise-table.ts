import { OPERATIONS } from '../../common/operations'
import {
  CALLERS,
  EXERCISE_FACTS,
  exerciseCells,
  type Cell,
  type ExerciseProfile,
} from '../../helpers/oracle/exercise-model'

/** A profile with every user, refresh and a known old-token behaviour: every cell of the model is listed. */
const EVERY_CELL: ExerciseProfile = {
  users: ['primary', 'restricted', 'otherTenant'],
  tenants: { primary: 'acme', restricted: 'acme', otherTenant: 'globex' },
  refresh: true,
  oldTokenAfterRefresh: 'accepted',
  listPageSize: 25,
}

const list = (cells: Cell[], dimension: Cell['dimension']) =>
  cells
    .filter((c) => c.dimension === dimension)
    .map((c) => `${c.cls}${c.thorough ? ' (--thorough)' : ''}`)
    .join(', ') || '—'

/**
 * docs/exercise.md: the exercise model's cells per operation (helpers/oracle/exercise-model.ts), for a profile naming
 * every user.
 */
export function renderExerciseTable(): string {
  const cells = exerciseCells(EVERY_CELL)
  const out = [
    `${cells.length} cells for a profile naming users.restricted and users.otherTenant (the reference's), from the ` +
      `operation catalogue's exercise dimensions (\`common/operation-facts.ts\`, \`exercise\`; crossed ` +
      `by \`helpers/oracle/exercise-model.ts\`). Caller classes: ${CALLERS.join(', ')}; "restricted" only where ` +
      `rights shape the operation, "other-tenant" only where it addresses a tenant's resource.`,
    '',
    '| operation | writes | state | caller | multiplicity | re-read after |',
    '|---|---|---|---|---|---|',
  ]
  for (const op of OPERATIONS) {
    const own = cells.filter((c) => c.operation === op.id)
    out.push(
      `| \`${op.id}\` | ${EXERCISE_FACTS[op.id].write ? 'yes' : 'no'} | ${list(own, 'state')} ` +
        `| ${list(own, 'caller')} | ${list(own, 'multiplicity')} | ${list(own, 'reread')} |`,
    )
  }
  out.push('', '| identity operation | classes |', '|---|---|')
  for (const id of [...new Set(cells.filter((c) => c.dimension === 'identity').map((c) => c.operation))])
    out.push(
      `| \`${id}\` | ${list(
        cells.filter((c) => c.operation === id),
        'identity',
      )} |`,
    )
  return out.join('\n')
}
