import type { FastifyInstance } from 'fastify'
import { errorBody, type ReferenceContext } from '../context'
import { DEMO_TENANTS, findTenant, type Right } from '../demo-data'

export const IDENTITY_PREFIX = '/api/v1/identifier'

/** Login and refresh, as the identity service answers them. */
export function registerIdentity(app: FastifyInstance, ctx: ReferenceContext): void {
  app.post<{ Params: { tenant: string }; Body: { username?: unknown; password?: unknown } }>(
    `${IDENTITY_PREFIX}/login/:tenant`,
    async (req, reply) => {
      const { username, password } = (req.body ?? {}) as { username?: unknown; password?: unknown }
      if (typeof username !== 'string' || typeof password !== 'string') {
        return reply.code(400).send(errorBody('username and password are required'))
      }
      // defect exercise-login-any-tenant-path: a user of another tenant is found too, and logged in to its own tenant
      const anyTenant =
        ctx.defects.has('exercise-login-any-tenant-path') &&
        !findTenant(req.params.tenant)?.users.some((u) => u.username === username)
          ? DEMO_TENANTS.find((x) => x.users.some((u) => u.username === username))
          : undefined
      const tenant = anyTenant ?? findTenant(req.params.tenant)
      const known = tenant?.users.find((u) => u.username === username)
      // defect auth-login-unknown-user-accepted: a name the tenant does not have logs in, with the fewest rights
      const user =
        known ??
        (tenant && ctx.defects.has('auth-login-unknown-user-accepted')
          ? { username, password, rights: [] as Right[] }
          : undefined)
      const passwordOk =
        user !== undefined && (user.password === password || ctx.defects.has('auth-login-wrong-password-accepted'))
      if (!tenant || !user || !passwordOk) return reply.code(401).send(errorBody('invalid credentials'))
      if ('challenge' in user && user.challenge) {
        return reply.send({
          challenge_name: user.challenge,
          challenge_parameters: { USER_ID_FOR_SRP: user.username },
          session: 'challenge-session',
        })
      }
      const ttl =
        'tokenTtlSeconds' in user && user.tokenTtlSeconds !== undefined
          ? user.tokenTtlSeconds
          : ctx.options.tokenTtlSeconds
      const t = await ctx.tokens.issue(
        { tenant: tenant.tag, username: user.username, rights: user.rights },
        ctx.defects.has('auth-login-token-expired') ? -60 : ttl,
      )
      const access_token = ctx.defects.has('auth-login-token-not-jwt') ? t.refresh_token : t.access_token
      // defect auth-login-no-access-token: the token under another casing, no access_token field anywhere (§5.2)
      const result = ctx.defects.has('auth-login-no-access-token')
        ? { AccessToken: access_token, TokenType: 'Bearer', ExpiresIn: t.expires_in, RefreshToken: t.refresh_token }
        : { access_token, token_type: 'Bearer', expires_in: t.expires_in, refresh_token: t.refresh_token }
      // defect auth-login-json-as-text-plain: the same JSON, labelled text/plain
      if (ctx.defects.has('auth-login-json-as-text-plain'))
        return reply.type('text/plain; charset=utf-8').send(JSON.stringify({ authentication_result: result }))
      return reply.send({ authentication_result: result })
    },
  )

  app.post<{ Params: { tenant: string } }>(`${IDENTITY_PREFIX}/token/refresh/:tenant`, async (req, reply) => {
    const { refresh_token, username } = (req.body ?? {}) as { refresh_token?: unknown; username?: unknown }
    if (typeof refresh_token !== 'string' || typeof username !== 'string') {
      return reply.code(400).send(errorBody('refresh_token and username are required'))
    }
    const p = ctx.tokens.refresh(refresh_token, username)
    if (!p || p.tenant !== req.params.tenant) return reply.code(401).send(errorBody('invalid refresh token'))
    // defect exercise-refresh-drops-rights: the refreshed token carries no rights
    const t = await ctx.tokens.issue(ctx.defects.has('exercise-refresh-drops-rights') ? { ...p, rights: [] } : p, p.ttl)
    // defect exercise-refresh-not-jwt: the refresh token where the access token goes
    return reply.send({
      authentication_result: {
        access_token: ctx.defects.has('exercise-refresh-not-jwt') ? refresh_token : t.access_token,
        token_type: 'Bearer',
        expires_in: t.expires_in,
      },
    })
  })
}
