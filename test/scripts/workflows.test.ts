import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { PROJECT_ROOT } from '../../helpers/config'

type Step = { run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, string> }
type Job = { steps: Step[]; env?: Record<string, string>; strategy?: { matrix?: Record<string, unknown[]> }; needs?: string }
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job> }

function workflow(name: string): { doc: Workflow; text: string } {
  const text = readFileSync(resolve(PROJECT_ROOT, '.github/workflows', name), 'utf8')
  return { doc: YAML.parse(text) as Workflow, text }
}

const runs = (j: Job) => j.steps.map((s) => s.run ?? '').join('\n')
const uses = (j: Job) => j.steps.map((s) => s.uses ?? '')

describe('CI workflows', () => {
  it('staging: secrets from CI secrets, reports uploaded, JUnit published, on PR and deployment', () => {
    const { doc, text } = workflow('conformance.yml')
    expect(Object.keys(doc.on)).toEqual(expect.arrayContaining(['pull_request', 'deployment_status', 'workflow_dispatch']))
    const staging = doc.jobs.staging!
    expect(staging.env?.AUTH_PASSWORD).toBe('${{ secrets.STAGING_AUTH_PASSWORD }}')
    expect(runs(staging)).toContain('npm run conformance')
    expect(uses(staging)).toContain('actions/upload-artifact@v4')
    expect(uses(staging)).toContain('mikepenz/action-junit-report@v5')
    expect(text).not.toMatch(/demo-pass|password:\s*['"]?\w/i)
  })

  it('nightly: vitest shards with blob reports, merged per tenant, history kept per tenant', () => {
    const { doc } = workflow('nightly.yml')
    const shard = doc.jobs.shard!
    expect(shard.strategy?.matrix?.tenant?.length).toBeGreaterThan(1)
    expect(shard.strategy?.matrix?.shard?.length).toBeGreaterThan(1)
    expect(runs(shard)).toMatch(/conformance:sharded -- --shards "\$SHARDS" --only \$\{\{ matrix\.shard \}\}/)
    expect(shard.env?.CONFORMANCE_RUN_ID).toContain('matrix.tenant')
    const merge = doc.jobs.merge!
    expect(merge.needs).toBe('shard')
    expect(merge.strategy?.matrix?.tenant).toEqual(shard.strategy?.matrix?.tenant)
    expect(runs(merge)).toContain('--merge-only')
    expect(runs(merge)).toMatch(/npm run report -- --history \.allure-history\/\$\{\{ matrix\.tenant \}\}\.jsonl --tenant/)
    expect(uses(merge)).toEqual(expect.arrayContaining(['actions/download-artifact@v4', 'actions/cache/restore@v4', 'actions/cache/save@v4', 'mikepenz/action-junit-report@v5']))
  })

  it('the self-test runs the fast tests and the slow proofs on every supported Node LTS line', () => {
    const { doc } = workflow('conformance.yml')
    const ref = doc.jobs.reference!
    expect(ref.strategy?.matrix?.node).toEqual(expect.arrayContaining([22, 24]))
    expect(runs(ref)).toMatch(/^npm test$/m)
    expect(runs(ref)).toMatch(/^npm run test:proofs$/m)
    for (const name of ['conformance.yml', 'nightly.yml', 'tenant-acceptance.yml']) {
      expect(workflow(name).text, name).not.toMatch(/node-version: 20\b/)
    }
  })

  it('tenant acceptance passes the profile through the environment, not into the shell', () => {
    const { doc, text } = workflow('tenant-acceptance.yml')
    expect(runs(doc.jobs.acceptance!)).toContain('npm run acceptance -- --profile "$PROFILE"')
    expect(text).not.toMatch(/run:.*\$\{\{\s*inputs\./)
  })
})
