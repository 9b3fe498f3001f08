import type { ReferenceSettings } from '../../../common/config/types'

/** Command-line options of reference/cli.ts for the profile's reference settings and defects. */
export function referenceArgs(settings: ReferenceSettings): string[] {
  const args: string[] = []
  if (settings.lockMs !== undefined) args.push('--lock-ms', String(settings.lockMs))
  if (settings.issueMs !== undefined) args.push('--issue-ms', String(settings.issueMs))
  if (settings.referralMs !== undefined) args.push('--referral-ms', String(settings.referralMs))
  for (const d of settings.defects) args.push('--defect', d)
  return args
}
