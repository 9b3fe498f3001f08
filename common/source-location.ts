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
const FRAME = /(?:\(|at )((?:file:\/\/)?(?:\/|[A-Za-z]:[\\/])[^()]*?):(\d+):\d+\)?\s*$/

/**
 * One frame of a stack trace as a project-relative location: undefined for frames outside the project (node:, other
 * folders) and unparsable lines. String operations only: it runs for every check declared (path.relative and
 * fileURLToPath cost several times more).
 */
function frameOf(l: string, root: string): SourceLocation | undefined {
  const m = FRAME.exec(l)
  if (!m) return undefined
  let file = m[1]!
  if (file.startsWith('file://')) file = decodeURIComponent(file.slice('file://'.length))
  const q = file.indexOf('?')
  if (q >= 0) file = file.slice(0, q)
  file = file.split('\\').join('/')
  const prefix = `${root.split('\\').join('/').replace(/\/$/, '')}/`
  // file:///C:/x on Windows: the drive after the slash
  if (/^\/[A-Za-z]:\//.test(file)) file = file.slice(1)
  if (!file.startsWith(prefix)) return undefined
  return { file: file.slice(prefix.length), line: Number(m[2]) }
}

/** The frames of a stack trace inside the project, as project-relative locations. */
export function stackLocations(stack: string, root: string = PROJECT_ROOT): SourceLocation[] {
  return stack
    .split('\n')
    .map((l) => frameOf(l, root))
    .filter((f): f is SourceLocation => f !== undefined)
}

/**
 * The first frame of the current stack inside the project, outside the files `skip` names (project-relative prefixes)
 * and outside node_modules: the caller a declaration or a judgement is attributed to. Undefined when the stack has
 * none. Reads the frames one by one and stops at the first that qualifies (it runs once per check declared).
 */
export function callerOutside(
  skip: readonly string[],
  stack: string = new Error().stack ?? '',
): SourceLocation | undefined {
  const outside = [THIS_MODULE, ...skip]
  for (const l of stack.split('\n')) {
    if (l.includes('node_modules')) continue
    const f = frameOf(l, PROJECT_ROOT)
    if (f && !outside.some((s) => f.file === s || f.file.startsWith(s))) return f
  }
  return undefined
}

/** This module, never the caller (the stack is captured here). */
const THIS_MODULE = 'common/source-location.ts'
