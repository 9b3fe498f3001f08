import { beforeAll, describe } from 'vitest'
import { foreignSignedToken, MALFORMED_TOKEN, tamperedToken, unsignedToken } from '../../helpers/client/auth/forge'
import { check } from '../../helpers/checks/check'
import { RepresentedGroups } from '../../helpers/checks/group'
import { expectStatus } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/checks/context'
import { OPERATIONS, type Operation } from '../../common/operations'
import { probesFor } from '../../helpers/checks/probes/requests'

const t = useTarget()

const probes = probesFor(t)

/**
 * A request that must be refused: well-formed in every other way (ids of the target's id type that do not exist,
 * every required query parameter, a body of the documented shape; helpers/checks/probes), so a 401 answers the token.
 */
function probe(op: Operation, token: { bearer?: string; anonymous?: boolean }) {
  const client = op.service === 'sales' ? t.sales : t.webhooks
  return client.call({
    ...probes.call(op),
    ...(token.anonymous ? { as: 'anonymous' as const } : { bearer: token.bearer! }),
  })
}

const tokens: { foreign?: string; unsigned?: string; tampered?: string } = {}
beforeAll(async () => {
  const genuine = await t.auth.token(t.config.users.primary)
  tokens.foreign = await foreignSignedToken(genuine)
  tokens.unsigned = unsignedToken(genuine)
  tokens.tampered = tamperedToken(genuine)
})

/**
 * `group`: the requirement a kind of token tests. A foreign signature, no signature (alg none) and an altered payload
 * are three probes of one requirement, the signature is verified: they share a group, FOREIGN leading.
 */
const VARIANTS = [
  { code: 'NOTOKEN', group: 'NOTOKEN', what: 'with no token', token: () => ({ anonymous: true }) },
  { code: 'MALFORMED', group: 'MALFORMED', what: 'with a malformed token', token: () => ({ bearer: MALFORMED_TOKEN }) },
  {
    code: 'FOREIGN',
    group: 'SIGNATURE',
    what: 'with a token signed by someone else',
    token: () => ({ bearer: tokens.foreign! }),
  },
  {
    code: 'UNSIGNED',
    group: 'SIGNATURE',
    what: 'with an unsigned (alg none) token',
    token: () => ({ bearer: tokens.unsigned! }),
  },
  {
    code: 'TAMPERED',
    group: 'SIGNATURE',
    what: 'with a token whose payload was altered',
    token: () => ({ bearer: tokens.tampered! }),
  },
] as const

// One requirement per group of token kinds and service: the representative (the service's first operation) runs
// first; if it fails, the service does not reject that kind of token at all and the other operations' checks are
// blocked
// with it as owner instead of failing one by one (docs/mutation.md). While it passes, every probe runs, concurrently,
// as many at once as the target's limit allows (profile http.maxInFlight, helpers/client/http/limiter.ts).
const groups = new RepresentedGroups()
const SERVICES = ['sales', 'webhooks'] as const

function meta(v: (typeof VARIANTS)[number], op: Operation) {
  return {
    id: `SEC-${v.code}-${op.id}`,
    spec: op.service === 'sales' ? ('sales' as const) : ('webhooks' as const),
    section: '§5',
    requirement: `${op.method} ${op.path} rejects a request ${v.what} with 401.`,
  }
}

const GROUP_WHAT: Record<(typeof VARIANTS)[number]['group'], string> = {
  NOTOKEN: 'rejection of a request with no token',
  MALFORMED: 'rejection of a malformed token',
  SIGNATURE: "verification of a token's signature",
}

for (const v of VARIANTS) {
  // the first variant of a group probes its representatives first; the group's other checks are its members
  const leads = VARIANTS.find((x) => x.group === v.group) === v
  describe(`every operation rejects a request ${v.what}`, () => {
    const representatives = leads ? SERVICES.map((service) => OPERATIONS.find((op) => op.service === service)!) : []
    for (const op of representatives) {
      const m = meta(v, op)
      check(m, () =>
        groups.representative(`${v.group}:${op.service}`, m.id, async () =>
          expectStatus(await probe(op, v.token()), 401),
        ),
      )
    }
    describe.concurrent(leads ? 'the other operations' : 'every operation', () => {
      for (const op of OPERATIONS.filter((o) => !representatives.includes(o))) {
        check(meta(v, op), () =>
          groups.member(`${v.group}:${op.service}`, `the ${op.service} service's ${GROUP_WHAT[v.group]}`, async () =>
            expectStatus(await probe(op, v.token()), 401),
          ),
        )
      }
    })
  })
}
