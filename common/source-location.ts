import { isAbsolute, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PROJECT_ROOT } from './project-root'

/** Where a piece of code is, relative to the project: what `list`, checks.json and a failure print as `file:line`. */
export interface SourceLocation {
  /** Project-relative, with forward slashes (suites/sales/lifecycle.test.ts). */
  file: string
  line: number
}

/** `file:line`, as editors and terminals open it. */
export function formatLocation(at: SourceLocation): string {
  return `${at.file}:${at.line}`
}

// "    at fn (file:///x/y.ts?target=a:12:5)", "    at /x/y.ts:12:5", "    at async fn (/x/y.ts:12:5)"
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?\s*$/

/** The frames of a stack trace as project-relative locations (frames of node: and of unparsable lines left out). */
export function stackLocations(stack: string, root: string = PROJECT_ROOT): SourceLocation[] {
  const out: SourceLocation[] = []
  for (const l of stack.split('\n')) {
    const m = FRAME.exec(l)
    if (!m) continue
    let file = m[1]!
    if (file.startsWith('node:') || file.startsWith('<')) continue
    if (file.startsWith('file://')) file = fileURLToPath(file.replace(/\?[^/]*$/, ''))
    file = file.replace(/\?[^/\\]*$/, '')
    if (!isAbsolute(file)) continue
    out.push({ file: relative(root, file).split('\\').join('/'), line: Number(m[2]) })
  }
  return out
}

/**
 * The first frame of the current stack outside the files `skip` names (project-relative prefixes) and outside
 * node_modules: the caller a declaration or a judgement is attributed to. Undefined when the stack has none.
 */
export function callerOutside(skip: readonly string[], stack: string = new Error().stack ?? ''): SourceLocation | undefined {
  const outside = [THIS_MODULE, ...skip]
  return stackLocations(stack).find((f) => !f.file.includes('node_modules/') && !f.file.startsWith('../') && !outside.some((s) => f.file === s || f.file.startsWith(s)))
}

/** This module, never the caller (the stack is captured here). */
const THIS_MODULE = 'common/source-location.ts'
