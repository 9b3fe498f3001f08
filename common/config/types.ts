export type DeviationPolicy = 'warn' | 'fail'

export interface UserCredentials {
  tenant: string
  username: string
  /** Resolved password. Never log it: the redactor masks it everywhere. */
  password: string
}

export type UserRole = 'primary' | 'restricted' | 'otherTenant' | 'challenge' | 'shortLived' | 'expired'

export interface ServiceUrls {
  salesBaseUrl: string
  authUrl: string
  webhookBaseUrl: string
}

export interface StatusSpellings {
  pending: string[]
  success: string[]
  failure: string[]
}

export interface PollingSettings {
  initialDelayMs: number
  maxDelayMs: number
  maxRatePerSecond: number
  actionsDeadlineMs: number
  requestDeadlineMs: number
  longPolling: boolean
}

export interface HttpSettings {
  connectTimeoutMs: number
  headersTimeoutMs: number
  bodyTimeoutMs: number
  /** Requests in flight to this target at once, per worker (helpers/client/http/limiter.ts). */
  maxInFlight: number
  /** The hard limits (helpers/client/http/limits.ts). */
  exchangeDeadlineMs: number
  maxResponseBytes: number
  maxJsonDepth: number
  callDeadlineMs: number
  preflightDeadlineMs: number
  /** The run-wide circuit breaker (helpers/client/http/breaker.ts). */
  breakerExpiries: number
  breakerSilenceMs: number
  /**
   * An answer larger than this is a finding of its own on its operation (helpers/client/http/recorder.ts, answer
   * budget).
   */
  answerBudgetBytes: number
  /** Per operation id, a budget of its own. */
  answerBudgets: Record<string, number>
}

/** Bounds on target-provided schemas and payload generation from them (common/config/schema-limits.ts). */
export interface SchemaLimitSettings {
  maxStringLength: number
  maxItems: number
  maxQuantifier: number
  maxDepth: number
  maxNodes: number
  generatorDeadlineMs: number
}

export interface ReferenceSettings {
  lockMs?: number
  issueMs?: number
  referralMs?: number
  tokenTtlSeconds?: number
  /** How long past exp the reference still accepts a token (the expiry-leeway variation). */
  expiryLeewaySeconds?: number
  /** Named defects to switch on (mutation testing); see reference/defects. */
  defects: string[]
}

/** The fully resolved target: profile + environment, validated. JSON-serialisable. */
/** TargetConfig.asWritten. */
export interface ProfileAsWritten {
  services: Partial<ServiceUrls>
  product?: string
  products?: string[]
  /** users.<role>.passwordEnv, by role. */
  passwordEnv: Record<string, string>
}

export interface TargetConfig {
  profileName: string
  profilePath: string
  nonProduction: boolean
  /** true when the suite starts the embedded reference service. */
  embedded: boolean
  services: ServiceUrls
  tenant: string
  product: string
  products: string[]
  users: { primary: UserCredentials } & Partial<Record<Exclude<UserRole, 'primary'>, UserCredentials>>
  /** Roles the profile marks optional (users.<role>.optional): a login that fails makes their checks not applicable. */
  optionalUsers?: string[]
  /** Configured optional users left out of this run, by role, with the reason (password unset, login refused). */
  unavailableUsers?: Record<string, string>
  headers: { tenant: string; acceptLanguage: string; extra: Record<string, string> }
  /**
   * expiryLeewaySeconds: how long past its exp a token may still be accepted (RFC 7519 §4.1.4 allows "some small
   * leeway" for clock skew): accepted within it is the deviation token-expiry-leeway, beyond it a failure.
   * maxExpiryLeewaySeconds: the ceiling of any acceptable leeway ("usually no more than a few minutes"; default 120,
   * never below expiryLeewaySeconds): --thorough probes a token past exp plus it.
   */
  auth: {
    loginPath: string
    refreshPath: string
    tokenPointers: string[]
    refreshSkewSeconds: number
    expiryLeewaySeconds: number
    maxExpiryLeewaySeconds: number
  }
  statuses: StatusSpellings
  polling: PollingSettings
  http: HttpSettings
  schemaLimits: SchemaLimitSettings
  features: Record<string, unknown>
  deviations: Record<string, DeviationPolicy>
  /**
   * The target's published OpenAPI documents (profile `openapi`): files (absolute, resolved against the profile)
   * or URLs, `{salesBaseUrl}` / `{webhookBaseUrl}` standing for the target's base URLs. Absent: no contract checks.
   */
  openapi?: string[]
  /**
   * What a contract finding means (profile `contract`): fail (default once documents are named) or warn (a deviation).
   */
  contract?: 'fail' | 'warn'
  /**
   * What the profile itself wrote, where a message or the production guard must tell it from the environment: its
   * service URLs, product fields and the password variable of each user (never a password). Set by loadTargetConfig,
   * so that nothing after the resolution reads the profile again; absent in a configuration built by hand (then the
   * profile is read for it).
   */
  asWritten?: ProfileAsWritten
  /**
   * The documents as the global setup loaded them (source -> parsed JSON), so a worker's suite files need not fetch
   * them again.
   */
  openapiDocuments?: Record<string, unknown>
  reference: ReferenceSettings
  extensions: Record<string, Record<string, unknown>>
  runId: string
  seed: number
  /** run --thorough (LEDGER_THOROUGH=1): the slow probes run too (a token past exp + auth.maxExpiryLeewaySeconds). */
  thorough?: boolean
}
