import { chmodSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'

type UserConsoleLog = Parameters<NonNullable<Reporter['onUserConsoleLog']>>[0]
import { loadTargetConfig } from '../../common/config/target-config'
import { listenForWorkerSecrets, runRedactor, safeText } from '../../helpers/client/evidence/redact'
import { loadTargets } from '../run/targets/load'
import { plannedTargets } from '../../common/run-plan'

const MAX_DEPTH = 8

/**
 * Every string of an error (message, stack, diff, expected, actual, cause...), redacted and made console-safe, in
 * place.
 */
export function redactError(error: unknown, depth = 0): void {
  if (error === null || typeof error !== 'object' || depth > MAX_DEPTH) return
  const e = error as Record<string, unknown>
  for (const k of Object.keys(e)) {
    const v = e[k]
    if (typeof v === 'string') e[k] = safeText(v)
    else if (v !== null && typeof v === 'object') redactError(v, depth + 1)
  }
}

interface TaskLike {
  name?: string
  result?: { errors?: unknown[] }
  tasks?: TaskLike[]
  logs?: { content: string }[]
  meta?: { failure?: unknown }
}

function redactTask(task: TaskLike, depth = 0): void {
  if (depth > 64) return
  for (const e of task.result?.errors ?? []) redactError(e)
  // the check's failure record (helpers/checks/task-meta.ts), which every report renders
  if (task.meta?.failure) redactError(task.meta.failure)
  for (const l of task.logs ?? []) l.content = safeText(l.content)
  for (const t of task.tasks ?? []) redactTask(t, depth + 1)
}

/**
 * The first reporter of the run, in the main thread: whatever the other reporters print or write (console, JUnit,
 * Allure, checks.json) has passed through the run's redactor first. It knows the configured secrets (the global
 * setup registers them) and every secret a worker thread learns (announced on the redactor's channel), and escapes
 * the control characters of target data. The checks' own messages are already redacted in the worker; this is the
 * net under everything else (a hook's error, a log line, an error of vitest's own).
 */
export default class RedactingReporter implements Reporter {
  private stop: (() => void) | undefined

  onInit(_vitest: Vitest): void {
    this.stop = listenForWorkerSecrets()
    // the configured passwords, also when no global setup runs here (the merge of a sharded run)
    try {
      // as the CLI resolved them (the run plan), or loaded here when vitest was started without one
      const configs = (plannedTargets() ?? loadTargets(process.env) ?? [{ config: loadTargetConfig(process.env) }]).map(
        (t) => t.config,
      )
      for (const c of configs) for (const u of Object.values(c.users)) runRedactor().addSecret(u?.password)
    } catch {
      // a bad profile stops the run in the global setup, with its own message
    }
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    log.content = safeText(log.content)
  }

  onTestModuleEnd(module: TestModule): void {
    redactTask((module as unknown as { task: TaskLike }).task)
  }

  onTestRunEnd(modules: readonly TestModule[], errors: readonly unknown[]): void {
    for (const m of modules) redactTask((m as unknown as { task: TaskLike }).task)
    for (const e of errors) redactError(e)
    this.stop?.()
  }
}

/** The report folder and everything in it readable by this user only (folders 0700, files 0600). */
export function restrictReports(dir: string, depth = 0): void {
  if (depth > 16) return
  try {
    chmodSync(dir, 0o700)
    for (const f of readdirSync(dir)) {
      const p = join(dir, f)
      const s = statSync(p)
      if (s.isDirectory()) restrictReports(p, depth + 1)
      else chmodSync(p, 0o600)
    }
  } catch {
    // a folder we do not own: the umask still applies to what this run writes
  }
}
