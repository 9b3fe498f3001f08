import type { DefectInfo } from './types'

/** Authentication and tenant isolation (sales-service.md §5, webhook-subscriptions.md §5). */
export const AUTH_DEFECTS = {
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
  'auth-login-no-access-token': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'Login answers 200 with the token under another casing (AccessToken): no access_token field anywhere.',
  },
  'auth-login-json-as-text-plain': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'Login answers its JSON with Content-Type: text/plain.',
  },
  'auth-tenant-header-trusted': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: "The tenant header wins over the token's tenant: a token of one tenant opens another tenant's data.",
  },
  'auth-sales-expired-token-accepted': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description:
      'The sales service does not check exp: expired tokens are accepted there, while the webhook service refuses ' +
      'them.',
  },
  'auth-webhooks-expiry-leeway-hour': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description:
      'The webhook service accepts tokens up to an hour past exp (a clock tolerance of 3600 s); the sales service ' +
      'refuses them.',
  },
  'auth-webhook-token-not-required': {
    area: 'auth',
    clause: 'webhook-subscriptions.md §5',
    description: 'Webhook routes are served without a bearer token.',
  },
  'auth-login-unknown-user-accepted': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'A login for a user the tenant does not have succeeds and returns a token for that name.',
  },
  'auth-login-token-expired': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: 'Login returns a JWT whose exp has already passed.',
  },
  'auth-malformed-token-accepted': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description:
      'A bearer that does not even have the three parts of a JWT is served as an anonymous caller instead of being ' +
      'refused with 401.',
  },
  'auth-tenant-header-optional': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: "A sales request without the tenant header is served in the token's tenant instead of being refused.",
  },
  'auth-webhooks-login-token-refused': {
    area: 'auth',
    clause: 'sales-service.md §5',
    description: "The webhook service refuses the identity service's own tokens (401): it expects another audience.",
  },
} as const satisfies Record<string, DefectInfo>
