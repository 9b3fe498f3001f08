import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, inject } from 'vitest'
import { AuthSession, profileAuthOptions } from '../client/auth/session'
import type { TargetConfig, UserCredentials, UserRole } from '../../common/config/types'
import { SchemaCompiler } from '../../common/data/schema-compiler'
import { contractRegistry, type ContractRegistry } from '../client/contracts/registry'
import { ServiceClient } from '../client/http/client'
import { takeSharedDispatchers } from '../client/http/dispatchers'
import { sharedLimiter } from '../client/http/limiter'
import { Recorder, type ExchangeSink } from '../client/http/recorder'
import { ANSWER_BUDGET_DEVIATION, ANSWER_HEADERS_DEVIATION } from '../client/http/limits'
import { retryPolicyFrom } from '../client/http/retry'
import { send } from '../client/http/send'
import { allureExchangeSink } from '../client/http/allure-sink'
import { trafficDir } from '../../common/report-paths'
import { runRedactor, type Redactor } from '../client/evidence/redact'
import { trafficFileSink } from '../client/http/traffic-file'
import { newIdsOf } from '../oracle/new-ids'
import { getPointer } from '../client/data/json-pointer'
import { collectingTarget } from './targets/for-target'
import { noteVerdict, runningChain, runningCheck, runningIndependently } from '../client/http/running-check'
import { ServiceModel } from '../oracle/service-model'
import { collectingInLane } from './targets/lane'
import { openApiSink } from '../client/contracts/openapi-sink'

import type {} from './task-meta' // ProvidedContext: target, targets

/** Everything a suite file needs to talk to the target. One per test file. */
export interface SuiteContext {
  config: TargetConfig
  sales: ServiceClient
  webhooks: ServiceClient
  identity: ServiceClient
  auth: AuthSession
  contracts: ContractRegistry
  /** Compiles JSON Schemas once for this context (payload and fixture validation). */
  schemas: SchemaCompiler
  recorder: Recorder
  redactor: Redactor
  /** The model of the services' state kept from this context's traffic; its invariants are checked on every answer. */
  model: ServiceModel
  /** A configured user, or undefined when the profile has none for that role. */
  user(role: UserRole): UserCredentials | undefined
  /** Why a role has no user in this run: the profile names none, or it is optional and unavailable (the reason). */
  missingUser(role: UserRole): string
  /** A label carrying the run id, to tag data the suite creates. */
  tag(label: string): string
  close(): Promise<void>
}

/** Builds a context for a target (no vitest hooks: usable from scripts and tests). */
export function createSuiteContext(
  config: TargetConfig,
  options: {
    allure?: boolean
    trafficFile?: boolean
    contracts?: boolean
    target?: string
    sinks?: ExchangeSink[]
    lane?: boolean
  } = {},
): SuiteContext {
  // in a multi-target run, vitest's global current test may belong to another target's block (hooks run outside
  // any check's scope): only a name within this target's block is taken
  const ownBlock = (name: string | undefined) =>
    name !== undefined && (options.target === undefined || name.startsWith(`${options.target} > `)) ? name : undefined
  const redactor = runRedactor()
  for (const u of Object.values(config.users)) redactor.addSecret(u?.password)
  const sinks: ExchangeSink[] = [...(options.sinks ?? [])]
  // the contract sink first: it marks what it validated, which the traffic file keeps (the run's contract coverage)
  const contracts = (options.contracts ?? true) ? openApiSink(config) : undefined
  if (contracts) sinks.push(contracts)
  const traffic = (options.trafficFile ?? true) ? trafficFileSink(trafficDir()) : undefined
  if (traffic) sinks.push(traffic)
  if (options.allure ?? true) sinks.push(allureExchangeSink)
  const recorder = new Recorder({
    runId: config.runId,
    redactor,
    sinks,
    currentTest: () => {
      try {
        // in a lane the suites run side by side: vitest's current test may be another suite's (hooks are no check)
        return runningCheck() ?? (options.lane ? undefined : ownBlock(expect.getState().currentTestName))
      } catch {
        return undefined
      }
    },
    currentChain: runningChain,
    answerBudget: {
      bytes: (op) => (op !== undefined ? config.http.answerBudgets[op] : undefined) ?? config.http.answerBudgetBytes,
      policy: config.deviations[ANSWER_BUDGET_DEVIATION] ?? 'fail',
    },
    largeHeaders: { policy: config.deviations[ANSWER_HEADERS_DEVIATION] ?? 'warn' },
  })
  // this run's target: what the files of a worker that talk to it share (the request limit, the connections, the ids
  // it gave as new)
  const { salesBaseUrl, webhookBaseUrl, authUrl } = config.services
  const targetKey = `${config.runId} ${salesBaseUrl} ${webhookBaseUrl} ${authUrl}`
  const limiter = sharedLimiter(targetKey, config.http.maxInFlight)
  const connections = takeSharedDispatchers(targetKey, config.http)
  const dispatchers = connections.dispatchers
  const defaultHeaders = { 'accept-language': config.headers.acceptLanguage, ...config.headers.extra }
  const auth = new AuthSession({
    ...profileAuthOptions(config),
    redactor,
    post: async (url, json) => {
      const res = await limiter.run(() =>
        send(dispatchers, { method: 'POST', url, json, headers: { accept: 'application/json', ...defaultHeaders } }),
      )
      // the tokens are secrets from the moment they arrive, before the exchange is recorded anywhere
      for (const p of config.auth.tokenPointers) {
        redactor.addSecret(getPointer(res.body, p))
        redactor.addSecret(getPointer(res.body, p.replace(/access_token$/, 'refresh_token')))
      }
      res.exchange = await recorder.record(res.request, res)
      return res
    },
  })
  // the ids the target answered as new: in a run of the suites (with its traffic file), one record for the run,
  // shared by every suite file and worker; an exploration's world keeps its own
  const model = new ServiceModel(config, traffic ? { newIds: newIdsOf(targetKey, trafficDir()) } : {})
  const client = (baseUrl: string, service: 'sales' | 'webhooks' | 'identity', tenantHeader?: string) =>
    new ServiceClient({
      service,
      observer: model,
      onVerdict: noteVerdict,
      baseUrl,
      dispatchers,
      recorder,
      auth,
      defaultUser: config.users.primary,
      defaultHeaders,
      retry: retryPolicyFrom(config.extensions),
      limiter,
      background: runningIndependently,
      ...(tenantHeader ? { tenantHeader } : {}),
    })
  return {
    config,
    sales: client(config.services.salesBaseUrl, 'sales', config.headers.tenant),
    webhooks: client(config.services.webhookBaseUrl, 'webhooks'),
    identity: client(config.services.authUrl, 'identity'),
    model,
    auth,
    contracts: contractRegistry(),
    schemas: new SchemaCompiler(),
    recorder,
    redactor,
    user: (role) => (role === 'primary' ? config.users.primary : config.users[role]),
    missingUser: (role) => config.unavailableUsers?.[role] ?? `the profile names no users.${role}`,
    tag: (label) => `lc-${config.runId}-${label}`,
    close: async () => {
      traffic?.close()
      // the linearizability checker's own cost in this context (docs/concurrency.md "The bound"), one line per context
      if (traffic && model.history.cost.judgements > 0)
        appendFileSync(
          join(trafficDir(), `history-cost-${process.pid}.cost`),
          `${JSON.stringify(model.history.cost)}\n`,
        )
      await connections.giveBack()
    },
  }
}

/**
 * The target of the suite being collected: the run's target, or in a multi-target run the target of the
 * enclosing block (helpers/checks/targets/for-target.ts).
 */
export function currentTarget(key = collectingTarget()): TargetConfig {
  const target = key === undefined ? inject('target') : inject('targets')?.[key]
  if (!target)
    throw new Error(
      key === undefined
        ? 'no target was provided (is runner/vitest/global-setup.ts the global setup?)'
        : `no target '${key}' in this run (TARGET_PROFILES)`,
    )
  return target
}

/** The target of this suite file (provided by the global setup), closed after the file. */
export function useTarget(): SuiteContext {
  const target = collectingTarget()
  const ctx = createSuiteContext(currentTarget(target), {
    ...(target === undefined ? {} : { target }),
    lane: collectingInLane(),
  })
  afterAll(() => ctx.close())
  return ctx
}
