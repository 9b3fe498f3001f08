import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { PROJECT_ROOT } from '../../common/config/target-config'

type Step = { run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, string> }
type Job = {
  steps: Step[]
  env?: Record<string, string>
  strategy?: { matrix?: Record<string, unknown[]> }
  needs?: string
}
type Workflow = { on: Record<string, unknown>; env?: Record<string, string>; jobs: Record<string, Job> }

function workflow(name: string): { doc: Workflow; text: string } {
  const text = readFileSync(resolve(PROJECT_ROOT, '.github/workflows', name), 'utf8')
  return { doc: YAML.parse(text) as Workflow, text }
}

const runs = (j: Job) => j.steps.map((s) => s.run ?? '').join('\n')
const uses = (j: Job) => j.steps.map((s) => s.uses ?? '')

describe('CI workflows', () => {
  it('staging: secrets from CI secrets, reports uploaded, JUnit published, on PR and deployment', () => {
    const { doc, text } = workflow('conformance.yml')
    expect(Object.keys(doc.on)).toEqual(
      expect.arrayContaining(['pull_request', 'deployment_status', 'workflow_dispatch']),
    )
    const staging = doc.jobs.staging!
    expect(staging.steps.find((s) => s.run === 'npm run conformance')?.env?.AUTH_PASSWORD).toBe(
      '${{ secrets.STAGING_AUTH_PASSWORD }}',
    )
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
    // each tenant its own profile: no tenant or user override on one shared profile
    expect(shard.env?.TARGET_PROFILE).toContain('matrix.tenant')
    expect(Object.keys(shard.env ?? {})).not.toEqual(expect.arrayContaining(['TENANT']))
    expect(Object.keys(shard.env ?? {})).not.toEqual(expect.arrayContaining(['AUTH_USERNAME']))
    for (const job of Object.values(doc.jobs)) {
      expect(Object.keys(job.env ?? {})).not.toEqual(expect.arrayContaining(['TENANT']))
      if (job.env?.TARGET_PROFILE) expect(job.env.TARGET_PROFILE).toContain('matrix.tenant')
    }
    const merge = doc.jobs.merge!
    expect(merge.needs).toBe('shard')
    expect(merge.strategy?.matrix?.tenant).toEqual(shard.strategy?.matrix?.tenant)
    expect(runs(merge)).toContain('--merge-only')
    expect(runs(merge)).toMatch(
      /npm run report -- --history \.allure-history\/\$\{\{ matrix\.tenant \}\}\.jsonl --tenant/,
    )
    expect(uses(merge)).toEqual(
      expect.arrayContaining([
        'actions/download-artifact@v4',
        'actions/cache/restore@v4',
        'actions/cache/save@v4',
        'mikepenz/action-junit-report@v5',
      ]),
    )
  })

  it('the self-test runs the fast tests and the slow proofs on every supported Node LTS line', () => {
    const { doc } = workflow('conformance.yml')
    const ref = doc.jobs.reference!
    expect(ref.strategy?.matrix?.node).toEqual(expect.arrayContaining([22, 24]))
    expect(runs(ref)).toMatch(/^npm test$/m)
    expect(runs(ref)).toMatch(/^npm run test:proofs$/m)
    // the proofs run the reference and the suite images
    expect(runs(ref)).toMatch(/build-reference-image\.sh/)
    expect(runs(ref)).toMatch(/build-suite-image\.sh/)
    for (const name of ['conformance.yml', 'nightly.yml', 'tenant-acceptance.yml']) {
      expect(workflow(name).text, name).not.toMatch(/node-version: 20\b/)
    }
  })

  it('every step that pipes fails when any command of the pipe fails (pipefail), in every workflow', () => {
    // GitHub's default shell is bash -e without pipefail: `false | tee x` succeeds, and a failed run would pass
    const pipe = /(^|[^|])\|(?!\|)/
    const missing: string[] = []
    for (const name of readdirSync(resolve(PROJECT_ROOT, '.github/workflows')).filter((f) => /\.ya?ml$/.test(f))) {
      const { doc } = workflow(name)
      for (const [id, job] of Object.entries(doc.jobs)) {
        for (const [i, step] of job.steps.entries()) {
          const run = (step.run ?? '')
            .replace(/'[^']*'/g, "''")
            .replace(/\|\|/g, '')
            .replace(/[\w*.-]+(\|[\w*.-]+)+\)/g, 'pattern)') // quoted text, ||, case patterns a|b)
          if (!pipe.test(run)) continue
          const shell = (step as { shell?: string }).shell ?? ''
          if (
            !/set -[a-z]*o pipefail|set -o pipefail|set -euo pipefail/.test(step.run ?? '') &&
            !/pipefail/.test(shell)
          )
            missing.push(
              `${name} ${id} step ${i + 1}: ${run
                .split('\n')
                .find((l) => pipe.test(l))
                ?.trim()}`,
            )
        }
      }
    }
    expect(missing).toEqual([])
  })

  it(
    'no workflow takes a free-text input: every workflow_dispatch input is a fixed list (a target or profile ' +
      'decides where secrets go)',
    () => {
      for (const name of readdirSync(resolve(PROJECT_ROOT, '.github/workflows')).filter((f) => f.endsWith('.yml'))) {
        const dispatch = workflow(name).doc.on.workflow_dispatch as
          | { inputs?: Record<string, { type?: string; options?: unknown[] }> }
          | null
          | undefined
        for (const [input, spec] of Object.entries(dispatch?.inputs ?? {})) {
          expect(spec.type, `${name}: input ${input}`).toBe('choice')
          expect(spec.options?.length, `${name}: input ${input}`).toBeGreaterThan(0)
        }
      }
      expect(workflow('conformance.yml').text).not.toMatch(/inputs\.profile/)
    },
  )

  it('tenant acceptance passes the tenant through the environment, not into the shell', () => {
    const { doc, text } = workflow('tenant-acceptance.yml')
    expect(doc.jobs.acceptance!.env?.TENANT_KEY).toBe('${{ inputs.tenant }}')
    expect(runs(doc.jobs.acceptance!)).toContain('case "$TENANT_KEY" in')
    expect(text).not.toMatch(/run:.*\$\{\{\s*inputs\./)
  })

  it(
    'secrets are in the environment of the step that runs the suite only: never of the workflow, a job, npm ci or ' +
      'any other step',
    () => {
      const suite = /npm run (conformance|acceptance|explore)\b/
      for (const name of ['conformance.yml', 'nightly.yml', 'tenant-acceptance.yml']) {
        const { doc } = workflow(name)
        expect(JSON.stringify(doc.env ?? {}), name).not.toContain('secrets')
        for (const [id, job] of Object.entries(doc.jobs)) {
          expect(JSON.stringify(job.env ?? {}), `${name} job ${id}`).not.toContain('secrets')
          for (const step of job.steps) {
            const holds =
              JSON.stringify(step.env ?? {}).includes('secrets') || JSON.stringify(step.with ?? {}).includes('secrets')
            if (holds) expect(step.run ?? '', `${name} job ${id}: a step with secrets`).toMatch(suite)
          }
        }
      }
    },
  )

  it(
    'tenant acceptance: the caller picks a tenant from a fixed list; profile and password secret follow from it ' +
      '(allowlist)',
    () => {
      const { doc, text } = workflow('tenant-acceptance.yml')
      const inputs = (doc.on.workflow_dispatch as { inputs: Record<string, { type?: string; options?: string[] }> })
        .inputs
      expect(Object.keys(inputs)).toEqual(['tenant'])
      expect(inputs.tenant!.type).toBe('choice')
      expect(inputs.tenant!.options!.length).toBeGreaterThan(0)
      // no secret is looked up by a name the caller gives
      expect(text).not.toMatch(/secrets\[/)
      const step = doc.jobs.acceptance!.steps.find((s) => /npm run acceptance/.test(s.run ?? ''))!
      const names = [
        ...(step.env?.AUTH_PASSWORD ?? '').matchAll(/inputs\.tenant == '([a-z]+)' && secrets\.([A-Z_]+)/g),
      ].map((m) => [m[1], m[2]])
      expect(names).toEqual(inputs.tenant!.options!.map((t) => [t, `ACCEPTANCE_PASSWORD_${t.toUpperCase()}`]))
      // the tenant's own profile, where the team writes it (docs/ci.md), never a demo profile of the embedded reference
      expect(step.run).toContain('profile="ci/acceptance/$TENANT_KEY.jsonc"')
      expect(step.run).toContain('--profile "$profile"')
      expect(step.run).not.toContain('fixtures/targets')
      // a stop before the run is in the job summary; the summary always carries the verdict line and its reasons
      expect(step.run).toMatch(/stop\(\) \{[^}]*GITHUB_STEP_SUMMARY/)
      expect(runs(doc.jobs.acceptance!)).toMatch(/for\(const r of a\.reasons\)/)
    },
  )
})
