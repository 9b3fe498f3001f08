import type { ChecksReport } from '../../runner/run/results/results'
import type { TrafficLine } from '../../helpers/client/http/traffic-file'

/** HTTP requests per suite file (scenario), measured from the traffic; requests outside a check go to '(hooks)'. */
export function requestsPerFile(report: ChecksReport | undefined, traffic: TrafficLine[]): Map<string, number> {
  const fileOf = new Map((report?.checks ?? []).map((c) => [c.title, c.file]))
  const out = new Map<string, number>()
  for (const t of traffic) {
    const title = t.test?.split(' > ').at(-1)
    const file = (title && fileOf.get(title)) || '(hooks, outside a check)'
    out.set(file, (out.get(file) ?? 0) + 1)
  }
  return new Map([...out.entries()].sort((a, b) => b[1] - a[1]))
}
