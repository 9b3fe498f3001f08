import { describe, expect, it } from 'vitest'
import { loadTargetConfig } from '../../../common/config/target-config'
import {
  exerciseCells,
  exerciseCoverage,
  exerciseLines,
  EXERCISE_FACTS,
  type ExerciseProfile,
} from '../../../helpers/oracle/exercise-model'
import { exerciseProfile } from '../../../helpers/oracle/exercise-tracker'
import { ServiceModel } from '../../../helpers/oracle/service-model'
import { tokenFingerprint } from '../../../helpers/client/http/client'
import { OPERATIONS } from '../../../common/operations'
import { computeVerdict } from '../../../runner/run/verdict'
import type { CallInfo } from '../../../helpers/client/http/observer'
import { answer } from './support'

const config = loadTargetConfig({} as NodeJS.ProcessEnv)
const PRIMARY = { kind: 'user' as const, tenant: 'acme', username: 'broker@acme.test' }

function call(
  m: ServiceModel,
  c: Partial<CallInfo> & Pick<CallInfo, 'operationId'>,
  status: number,
  body: unknown,
): string[] {
  return (
    m
      .begin({
        service: c.operationId?.startsWith('webhooks.') ? 'webhooks' : 'sales',
        method: 'GET',
        params: {},
        actor: PRIMARY,
        ...c,
      })
      .end(answer(status, body)).exercised ?? []
  )
}

describe('the exercise model', () => {
  it('keys every operation of common/operations.json, and nothing else', () => {
    expect(Object.keys(EXERCISE_FACTS).sort()).toEqual(OPERATIONS.map((o) => o.id).sort())
  })

  it(
    'makes the restricted and other-tenant cells not applicable when the profile names no such user, with the field ' +
      'that would',
    () => {
      const profile: ExerciseProfile = {
        users: ['primary'],
        tenants: { primary: 'acme' },
        refresh: true,
        oldTokenAfterRefresh: 'accepted',
        listPageSize: 25,
      }
      const cells = exerciseCells(profile)
      expect(cells.find((c) => c.id === 'sales.quote.create|caller=restricted')?.notApplicable).toBe(
        'the profile names no users.restricted',
      )
      expect(cells.find((c) => c.id === 'sales.quote.bind|caller=other-tenant')?.notApplicable).toBe(
        'the profile names no users.otherTenant',
      )
      expect(cells.some((c) => c.id === 'webhooks.events.list|caller=other-tenant')).toBe(false)
      expect(
        exerciseCells({ ...profile, refresh: false }).find((c) => c.id === 'identity.refresh|identity=refresh')
          ?.notApplicable,
      ).toMatch(/auth.refreshPath/)
    },
  )

  it('makes an allocation to a terminated policy not applicable when the profile leaves it unspecified', () => {
    const profile: ExerciseProfile = {
      users: ['primary'],
      tenants: { primary: 'acme' },
      refresh: true,
      oldTokenAfterRefresh: 'accepted',
      listPageSize: 25,
    }
    const cell = (p: ExerciseProfile) =>
      exerciseCells(p).find((c) => c.id === 'sales.payments.allocate|state=terminated')
    expect(cell(profile)?.notApplicable).toBeUndefined()
    expect(cell({ ...profile, terminatedPolicyPayments: 'unspecified' })?.notApplicable).toMatch(
      /terminatedPolicyPayments/,
    )
    expect(exerciseCells(profile).some((c) => c.id === 'sales.payments.allocate|state=changed')).toBe(false)
  })

  it('knows the policy an allocation is for from the invoices its owner read', () => {
    const m = new ServiceModel(config)
    m.exercise.policyIssued('P1')
    call(m, { operationId: 'sales.policy.invoices', params: { policyId: 'P1' } }, 200, [
      { invoicenumber: 'I1', premium: 10, adminfee: 0, payable: 10 },
    ])
    const cells = call(
      m,
      {
        operationId: 'sales.payments.allocate',
        method: 'POST',
        json: { paymentId: 'X', allocations: [{ invoicenumber: 'I1', amount: 1 }] },
      },
      200,
      { data: { events: [] } },
    )
    expect(cells).toContain('sales.payments.allocate|state=issued')
  })

  it('reads the reference profile: three users of two tenants, lists paged by 25', () => {
    const p = exerciseProfile(config)
    expect([...p.users].sort()).toEqual(['otherTenant', 'primary', 'restricted'])
    expect(p.listPageSize).toBe(25)
    const logins = exerciseCells(p)
      .filter((c) => c.operation === 'identity.login')
      .map((c) => c.cls)
      .sort()
    expect(logins).toEqual([
      'otherTenant@acme',
      'otherTenant@own',
      'primary@globex',
      'primary@own',
      'restricted@globex',
      'restricted@own',
    ])
  })

  it('counts coverage and says why each cell was not exercised', () => {
    const cells = exerciseCells(exerciseProfile(config))
    const some = new Set(cells.slice(0, 10).map((c) => c.id))
    const full = exerciseCoverage(cells, some, { thorough: false, readOnly: false, partial: false })
    expect(full.exercised).toBe(10)
    expect(full.applicable).toBe(cells.length)
    expect(full.notExercised.find((n) => n.cell === 'sales.termination.terminate|state=changed')?.why).toBe(
      'left to --thorough',
    )
    expect(full.notExercised.filter((n) => n.why !== 'left to --thorough').every((n) => n.why === 'not reached')).toBe(
      true,
    )
    expect(
      exerciseCoverage(cells, some, { thorough: true, readOnly: false, partial: false }).notExercised.every(
        (n) => n.why === 'not reached',
      ),
    ).toBe(true)
    const smoke = exerciseCoverage(cells, some, { thorough: false, readOnly: true, partial: true })
    expect(smoke.notExercised.find((n) => n.cell === 'sales.quote.bind|caller=owner')?.why).toBe('read-only run')
    expect(smoke.notExercised.find((n) => n.cell === 'sales.policy.links|caller=owner')?.why).toBe(
      'outside the selection',
    )
    expect(exerciseLines(full)[0]).toMatch(/^exercise 10 of \d+ applicable cells/)
  })

  it('--strict: an applicable cell not exercised makes a passing run INCONCLUSIVE', () => {
    const totals = { passed: 3, failed: 0, skipped: 0, 'not-applicable': 0 }
    expect(computeVerdict({ totals, strictUnexercised: ['sales.quote.bind|caller=owner'] }).verdict).toBe(
      'INCONCLUSIVE',
    )
    expect(computeVerdict({ totals, strictUnexercised: [] }).verdict).toBe('CONFORMS')
  })
})

describe('the exercise tracker, from the traffic the model sees', () => {
  it('classifies a quote by the state its own traffic left it in, and the caller of each call', () => {
    const m = new ServiceModel(config)
    expect(
      call(m, { operationId: 'sales.quote.create', method: 'POST', json: {} }, 200, { policy: { id: 'q1' } }),
    ).toEqual(['sales.quote.create|caller=owner'])
    expect(call(m, { operationId: 'sales.quote.get', params: { policyId: 'q1' } }, 200, { data: {} })).toEqual([
      'sales.quote.get|caller=owner',
      'sales.quote.get|state=draft',
    ])
    call(m, { operationId: 'sales.quote.calculate', method: 'POST', params: { id: 'q1' } }, 200, {})
    expect(
      call(m, { operationId: 'sales.quote.bind', method: 'POST', params: { policyId: 'q1' } }, 204, undefined),
    ).toContain('sales.quote.bind|state=calculated')
    expect(
      call(m, { operationId: 'sales.quote.get', params: { policyId: 'q1' }, actor: { kind: 'anonymous' } }, 401, {}),
    ).toEqual(['sales.quote.get|caller=no-token'])
    expect(
      call(
        m,
        { operationId: 'sales.quote.get', params: { policyId: 'q1' }, actor: { kind: 'bearer', exp: 1 } },
        401,
        {},
      ),
    ).toEqual(['sales.quote.get|caller=expired-token'])
    expect(
      call(m, { operationId: 'sales.quote.get', params: { policyId: 'q1' }, actor: { kind: 'bearer' } }, 401, {}),
    ).toEqual(['sales.quote.get|caller=malformed-token'])
    expect(
      call(
        m,
        {
          operationId: 'sales.quote.get',
          params: { policyId: 'q1' },
          actor: { kind: 'user', tenant: 'globex', username: 'broker@globex.test' },
        },
        404,
        {},
      ),
    ).toEqual(['sales.quote.get|caller=other-tenant'])
  })

  it('counts a re-read of a subscription after its update once, and a list over a page', () => {
    const m = new ServiceModel(config)
    for (let i = 0; i < 26; i += 1)
      call(
        m,
        {
          operationId: 'webhooks.subscription.create',
          method: 'POST',
          json: { event: 'export', url: `http://a/${i}` },
        },
        201,
        { id: `s${i}`, event: 'export', url: `http://a/${i}`, createdAt: 'x', updatedAt: 'x' },
      )
    call(
      m,
      { operationId: 'webhooks.subscription.update', method: 'PUT', params: { id: 's0' }, json: { url: 'http://b' } },
      200,
      { id: 's0', event: 'export', url: 'http://b', createdAt: 'x', updatedAt: 'y' },
    )
    expect(call(m, { operationId: 'webhooks.subscription.get', params: { id: 's0' } }, 200, {})).toContain(
      'webhooks.subscription.get|reread=after-update',
    )
    expect(call(m, { operationId: 'webhooks.subscription.get', params: { id: 's0' } }, 200, {})).not.toContain(
      'webhooks.subscription.get|reread=after-update',
    )
    expect(
      call(m, { operationId: 'webhooks.subscriptions.list', query: { page: '1', pageSize: '25' } }, 200, []),
    ).toContain('webhooks.subscriptions.list|multiplicity=over-page')
  })

  it('tells a refreshed token and the one it replaced by their fingerprints', () => {
    const m = new ServiceModel(config)
    const login = m.begin({
      service: 'identity',
      method: 'POST',
      params: {},
      path: '/api/v1/identifier/login/acme',
      json: { username: 'broker@acme.test', password: config.users.primary.password },
      actor: { kind: 'anonymous' },
    })
    expect(
      login.end(answer(200, { authentication_result: { access_token: 'old', refresh_token: 'r1' } })).exercised,
    ).toEqual(['identity.login|identity=primary@own'])
    const refresh = m.begin({
      service: 'identity',
      method: 'POST',
      params: {},
      path: '/api/v1/identifier/token/refresh/acme',
      json: { refresh_token: 'r1', username: 'broker@acme.test' },
      actor: { kind: 'anonymous' },
    })
    expect(refresh.end(answer(200, { authentication_result: { access_token: 'new' } })).exercised).toEqual([
      'identity.refresh|identity=refresh',
    ])
    const use = (token: string) =>
      call(
        m,
        { operationId: 'webhooks.events.list', actor: { kind: 'bearer', fingerprint: tokenFingerprint(token) } },
        200,
        [],
      )
    expect(use('new')).toEqual([
      'webhooks.events.list|caller=owner',
      'identity.refreshed-token|identity=refreshed-token-used',
    ])
    expect(use('old')).toEqual([
      'webhooks.events.list|caller=owner',
      'identity.refreshed-token|identity=old-token-after-refresh',
    ])
  })
})
