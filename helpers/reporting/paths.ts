import { isAbsolute, join, resolve } from 'node:path'
import { PROJECT_ROOT } from '../config'

/** Where reports go: $REPORTS_DIR or <project>/reports. */
export function reportsDir(env: NodeJS.ProcessEnv = process.env): string {
  const d = env.REPORTS_DIR
  if (!d) return resolve(PROJECT_ROOT, 'reports')
  return isAbsolute(d) ? d : resolve(process.cwd(), d)
}

export function trafficDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(reportsDir(env), 'traffic')
}
