/** Demo tenants and users of the reference service. Public demo credentials, not secrets. */
export const DEMO_PASSWORD = 'demo-pass-4821'

export type Right = 'schemes:full' | 'schemes:restricted' | 'sales:write' | 'webhooks:write'

export interface DemoUser {
  username: string
  password: string
  rights: Right[]
  /** Token lifetime override in seconds (short-lived user for expiry checks; negative: already expired when issued). */
  tokenTtlSeconds?: number
  /** Login answers with this challenge instead of a token. */
  challenge?: string
}

export interface DemoTenant {
  tag: string
  name: string
  /** Tenant features: customer_identity names the query parameters of the custom view. */
  features: { customer_identity: string[] }
  users: DemoUser[]
}

const FULL: Right[] = ['schemes:full', 'sales:write', 'webhooks:write']

function broker(tenant: string): DemoUser {
  return { username: `broker@${tenant}.test`, password: DEMO_PASSWORD, rights: FULL }
}

export const DEMO_TENANTS: readonly DemoTenant[] = [
  {
    tag: 'acme',
    name: 'Acme Insurance Brokers',
    features: { customer_identity: ['code', 'documentCountry'] },
    users: [
      broker('acme'),
      {
        username: 'viewer@acme.test',
        password: DEMO_PASSWORD,
        rights: ['schemes:restricted', 'sales:write', 'webhooks:write'],
      },
      { username: 'mfa@acme.test', password: DEMO_PASSWORD, rights: FULL, challenge: 'SOFTWARE_TOKEN_MFA' },
      { username: 'shortlived@acme.test', password: DEMO_PASSWORD, rights: FULL, tokenTtlSeconds: 1 },
      // tokens already expired when issued, by more than any expiry leeway a client allows and the 120 s ceiling
      // (auth.maxExpiryLeewaySeconds): the beyond-the-leeway check, and beyond the ceiling without waiting
      { username: 'expired@acme.test', password: DEMO_PASSWORD, rights: FULL, tokenTtlSeconds: -240 },
    ],
  },
  {
    tag: 'globex',
    name: 'Globex Cover',
    features: { customer_identity: ['code', 'documentCountry'] },
    users: [broker('globex')],
  },
  {
    tag: 'initech',
    name: 'Initech Mutual',
    features: { customer_identity: ['code', 'documentCountry'] },
    users: [broker('initech')],
  },
  {
    tag: 'umbrella',
    name: 'Umbrella Underwriting',
    features: { customer_identity: ['code', 'documentCountry'] },
    users: [broker('umbrella')],
  },
]

export function findTenant(tag: string): DemoTenant | undefined {
  return DEMO_TENANTS.find((t) => t.tag === tag)
}
