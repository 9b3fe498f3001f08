import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../../common/project-root'
import { stackLocations, type SourceLocation } from '../../common/source-location'
import type { Violation } from './invariants'

/** This module: never the rule (the stack is read here). */
const THIS_MODULE = 'helpers/oracle/judged-at.ts'
/** Where the model's rules are. */
const MODEL = 'helpers/oracle/'

/**
 * The rule of the model that judged a violation: among the frames of `stack` in helpers/oracle/, the first whose source
 * statement names the invariant (`out.push({ invariant: <id>, ...` or a relay such as `v(<id>, ...)`, the id quoted;
 * the statement is the frame's line and the lines its brackets keep open, as the formatter lays a call out), else
 * the first frame in the model. Read only when an invariant is broken: a passing answer costs nothing.
 */
export function ruleLocation(
  invariant: string,
  stack: string,
  read: (file: string) => string = (f) => readFileSync(join(PROJECT_ROOT, f), 'utf8'),
): SourceLocation | undefined {
  const frames = stackLocations(stack).filter((f) => f.file.startsWith(MODEL) && f.file !== THIS_MODULE)
  const sources = new Map<string, string[]>()
  const lineOf = (f: SourceLocation): string => {
    if (!sources.has(f.file)) {
      try {
        sources.set(f.file, read(f.file).split('\n'))
      } catch {
        sources.set(f.file, [])
      }
    }
    return statementAt(sources.get(f.file)!, f.line)
  }
  return frames.find((f) => lineOf(f).includes(`'${invariant}'`)) ?? frames[0]
}

/** The source from `line` (1-based) to where the brackets opened on it close again: at most 12 lines. */
function statementAt(lines: string[], line: number): string {
  const out: string[] = []
  let depth = 0
  for (let i = line - 1; i < lines.length && out.length < 12; i++) {
    const text = lines[i] ?? ''
    out.push(text)
    for (const c of text)
      depth += c === '(' || c === '{' || c === '[' ? 1 : c === ')' || c === '}' || c === ']' ? -1 : 0
    if (depth <= 0) break
  }
  return out.join('\n')
}

/**
 * The list the model's rules push their violations into for one answer (helpers/oracle/service-model.ts): each
 * violation
 * is stamped with the rule that judged it (`at`), which its failure names (helpers/checks/failure.ts formatViolations).
 * The rules keep pushing plain objects; nothing in them changes.
 */
export function violationList(): Violation[] {
  const list: Violation[] = []
  const push = list.push.bind(list)
  list.push = (...items: Violation[]): number => {
    const stack = items.some((v) => !v.at) ? (new Error().stack ?? '') : ''
    return push(...items.map((v) => (v.at ? v : { ...v, ...withAt(ruleLocation(v.invariant, stack)) })))
  }
  return list
}

function withAt(at: SourceLocation | undefined): { at?: SourceLocation } {
  return at ? { at } : {}
}
