/**
 * Named defects: each is a small, deliberate departure from a spec clause that the
 * reference service can be started with (--defect <name>, or REFERENCE_DEFECTS).
 * The conformance suite must catch every one of them (see npm run mutation).
 *
 * To add one: add an entry here (name, area, clause, description), then make the behaviour
 * conditional on `ctx.defects.has('<name>')` where the area implements the clause.
 */
export interface DefectInfo {
  area: string
  /** The spec clause it violates: document and section. */
  clause: string
  description: string
}

export const DEFECTS = {
  'auth-token-not-required': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'Requests without a bearer token are served instead of rejected with 401.',
  },
  'auth-foreign-signature-accepted': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'The token signature is not verified: a token signed by someone else is accepted.',
  },
  'auth-expired-token-accepted': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'An expired token is accepted.',
  },
  'auth-login-wrong-password-accepted': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'Login succeeds with a wrong password.',
  },
  'auth-login-token-not-jwt': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'Login returns an access_token that is not a JWT.',
  },
  'auth-webhook-token-not-required': {
    area: 'auth',
    clause: 'webhook-subscriptions.md §5',
    description: 'Webhook routes are served without a bearer token.',
  },
} as const satisfies Record<string, DefectInfo>

export type DefectName = keyof typeof DEFECTS

export function isDefectName(name: string): name is DefectName {
  return Object.hasOwn(DEFECTS, name)
}

/** The defects a reference instance runs with. Immutable once built. */
export class DefectSet {
  private readonly names: ReadonlySet<DefectName>

  constructor(names: Iterable<string> = []) {
    const list = [...names]
    const unknown = list.filter((n) => !isDefectName(n))
    if (unknown.length > 0) {
      throw new Error(`unknown defect(s): ${unknown.join(', ')}; known: ${Object.keys(DEFECTS).join(', ')}`)
    }
    this.names = new Set(list as DefectName[])
  }

  has(name: DefectName): boolean {
    return this.names.has(name)
  }

  list(): DefectName[] {
    return [...this.names]
  }
}
