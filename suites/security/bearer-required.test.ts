import { beforeAll, describe } from 'vitest'
import { foreignSignedToken, MALFORMED_TOKEN, tamperedToken, unsignedToken } from '../../helpers/auth/forge'
import { check } from '../../helpers/checks/check'
import { expectStatus } from '../../helpers/checks/expect'
import { useTarget } from '../../helpers/context'
import { OPERATIONS, type Operation } from '../../common/operations'
import { probesFor } from '../../helpers/probes/requests'

const t = useTarget()

const probes = probesFor(t)

/**
 * A request that must be refused: well-formed in every other way (ids of the target's id type that do not exist,
 * every required query parameter, a body of the documented shape; helpers/probes), so a 401 answers the token.
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

const VARIANTS = [
  { code: 'NOTOKEN', what: 'with no token', token: () => ({ anonymous: true }) },
  { code: 'MALFORMED', what: 'with a malformed token', token: () => ({ bearer: MALFORMED_TOKEN }) },
  { code: 'FOREIGN', what: 'with a token signed by someone else', token: () => ({ bearer: tokens.foreign! }) },
  { code: 'UNSIGNED', what: 'with an unsigned (alg none) token', token: () => ({ bearer: tokens.unsigned! }) },
  { code: 'TAMPERED', what: 'with a token whose payload was altered', token: () => ({ bearer: tokens.tampered! }) },
] as const

// every probe is independent of the others: they run concurrently, as many at once as the target's limit allows
// (profile http.maxInFlight, helpers/http/limiter.ts)
for (const v of VARIANTS) {
  describe.concurrent(`every operation rejects a request ${v.what}`, () => {
    for (const op of OPERATIONS) {
      check(
        {
          id: `SEC-${v.code}-${op.id}`,
          spec: op.service === 'sales' ? 'sales' : 'webhooks',
          section: '§5',
          requirement: `${op.method} ${op.path} rejects a request ${v.what} with 401.`,
        },
        async () => expectStatus(await probe(op, v.token()), 401),
      )
    }
  })
}
