/** The environment variables the suite reads, and how each is checked. */
export const ENV_VARS = {
  TARGET_PROFILE: 'path of a target profile (.json or .jsonc)',
  TARGET_PROFILES: 'comma-separated profile paths: one run checks every target at once (docs/targets.md)',
  SALES_BASE_URL: 'base URL of the sales service (no embedded service is started when set)',
  AUTH_URL: 'base URL of the identity service; login is {AUTH_URL}/login/{tenant}',
  WEBHOOK_BASE_URL: 'base URL of the webhook service',
  TENANT: 'tenant tag',
  AUTH_USERNAME: 'username of the primary user',
  AUTH_PASSWORD: 'password of the primary user',
  PRODUCT: 'product (schema name) for the main scenarios',
  REFERENCE_DEFECTS: 'comma-separated defects for the embedded reference service',
  CONFORMANCE_SEED: 'integer seed for generated data',
  CONFORMANCE_RUN_ID: 'run id used to tag created data',
  LEDGER_THOROUGH: '1: the slow probes run too (set by run --thorough): a token past exp + auth.maxExpiryLeewaySeconds, in the background',
} as const

export type EnvName = keyof typeof ENV_VARS

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== ''
  } catch {
    return false
  }
}

/** Reads a variable: undefined when unset or blank. */
export function readEnv(env: NodeJS.ProcessEnv, name: EnvName): string | undefined {
  const v = env[name]
  return v === undefined || v.trim() === '' ? undefined : v.trim()
}
