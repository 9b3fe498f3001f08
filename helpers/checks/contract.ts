import type { ContractRegistry } from '../client/contracts/registry'
import type { HttpResult } from '../client/http/types'
import { expectJsonBody } from './expect'
import { ConformanceFailure } from './failure'

/** The response body matches the named contract (fixtures/contracts/<name>.json). */
export function expectContract(contracts: ContractRegistry, res: HttpResult, name: string): unknown {
  const body = expectJsonBody(res)
  const r = contracts.validate(name, body)
  if (!r.valid) {
    throw new ConformanceFailure({
      expected: `a body matching contract ${name}`,
      expectation: { kind: 'contract', name },
      actual: r.errors.slice(0, 10).join('; '),
      res,
    })
  }
  return body
}
