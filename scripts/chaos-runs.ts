/**
 * Runs the full conformance suite N times against a reference service with injected faults, and proves
 * after each run that the service holds exactly what the suite meant to create (no duplicate side effects).
 *
 *   npm run chaos -- [--runs 20] [--chaos "503=0.05,latency=0-200"] [--seed 1] [files...]
 *
 * Each run gets a fresh reference (chaos seed = base seed + run number), is green or not, and its
 * /__reference/stats is compared with the successful create POSTs of the run's recorded traffic.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { loadTargetConfig } from '../common/config/target-config'
import { readTraffic } from '../runner/run/results/results'
import { formatChaos, parseChaos } from '../reference/chaos/spec'
import type { ReferenceStats } from '../reference/chaos/stats'
import { startReference } from '../reference/server'
import { compareSideEffects } from './chaos/side-effects'
import { runConformance } from './harness/run-conformance'

const DEFAULT_CHAOS = '503=0.05,latency=0-200'

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '20' },
      chaos: { type: 'string', default: DEFAULT_CHAOS },
      seed: { type: 'string', default: '1' },
    },
  })
  const runs = Number(values.runs)
  const baseSeed = Number(values.seed)
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a positive integer, got '${values.runs}'`)
  if (!Number.isInteger(baseSeed) || baseSeed < 0)
    throw new Error(`--seed: expected a non-negative integer, got '${values.seed}'`)
  const base = parseChaos(values.chaos)
  const reference = loadTargetConfig({}).reference
  console.log(
    `chaos runs: ${runs} full run(s), chaos ${formatChaos(base)} (seed ${baseSeed}+run)${
      positionals.length ? `, files ${positionals.join(' ')}` : ''
    }`,
  )
  let green = 0
  let clean = 0
  for (let i = 1; i <= runs; i += 1) {
    const chaos = { ...base, seed: baseSeed + i }
    const ref = await startReference({ ...reference, defects: reference.defects, chaos })
    let line: string
    try {
      const run = await runConformance({
        ...(positionals.length ? { files: positionals } : {}),
        env: { SALES_BASE_URL: ref.url, AUTH_URL: `${ref.url}/api/v1/identifier`, WEBHOOK_BASE_URL: ref.url },
        keepReports: true,
        timeoutMs: 600_000,
      })
      const stats = (await (await fetch(`${ref.url}/__reference/stats`)).json()) as ReferenceStats
      const cmp = compareSideEffects(readTraffic(join(run.reportsDir, 'traffic'), run.report?.run?.runId), stats)
      rmSync(run.reportsDir, { recursive: true, force: true })
      const t = run.report?.totals
      const ok = run.verdict?.verdict === 'CONFORMS'
      if (ok) green += 1
      if (cmp.mismatches.length === 0) clean += 1
      const ents = cmp.entities.map((e) => `${e.kind} ${e.suite}/${e.service}`).join(', ')
      const inj = stats.chaos?.injected
      line =
        `run ${String(i).padStart(2)} ${ok ? 'GREEN' : 'RED  '} ${
          run.verdict?.label ?? 'no verdict'
        } ${t ? `${t.passed} passed ${t.failed} failed` : `exit ${run.exitCode}, no report`}` +
        ` | ${(run.wallMs / 1000).toFixed(1)} s | injected 503 ${inj?.['503'] ?? 0}, reset ${inj?.reset ?? 0}` +
        ` | retries ${
          Object.entries(cmp.retries)
            .map(([m, n]) => `${m} ${n}`)
            .join(', ') || 'none'
        }` +
        ` | created suite/service: ${ents} | ${
          cmp.mismatches.length === 0 ? 'no duplicate side effects' : `MISMATCH: ${cmp.mismatches.join('; ')}`
        }`
      if (!ok)
        line += `\n${
          (run.report?.checks ?? [])
            .filter((c) => c.status === 'failed')
            .slice(0, 5)
            .map((c) => `    FAILED ${c.id}: ${(c.error ?? '').split('\n').slice(0, 4).join(' | ')}`)
            .join('\n') || run.output.slice(-1500)
        }`
    } finally {
      await ref.close()
    }
    console.log(line)
  }
  const pass = green === runs && clean === runs
  console.log(
    `chaos runs: ${green}/${runs} green, ${clean}/${runs} without duplicate side effects -> ${pass ? 'PASS' : 'FAIL'}`,
  )
  return pass ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`chaos runs: ${(e as Error).message}`)
    process.exit(2)
  },
)
