import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

/**
 * The import graph among the parts of the check library (helpers/): each folder or file right under a layer
 * (helpers/client/http, helpers/checks/context.ts) is a part; an arrow is "part A imports part B" (any number of import
 * lines). Printed by `npm run imports:graph` (scripts/import-graph.ts): arrows, arrows pointing back up the layers,
 * cycles (strongly connected parts), with and without type-only imports; docs/architecture.md records the figures.
 * test/layout/imports.test.ts uses the same parser and graph: no arrow back up, no cycle.
 */

export interface ImportEdge {
  from: string
  to: string
  /** Every import of `from` into `to` is `import type` (erased at run time). */
  typeOnly: boolean
}

/**
 * The layers of the check library, lowest first (docs/architecture.md): an arrow from a lower layer to a higher one
 * points back up. A part's layer is the first folder of its path under helpers/.
 */
export const LAYERS = ['client', 'oracle', 'checks'] as const
export type LayerName = (typeof LAYERS)[number]

/** The layer of a part (`client/http` -> client), undefined for a path outside the three layers. */
export function layerOf(part: string): LayerName | undefined {
  const first = part.split('/')[0]
  return (LAYERS as readonly string[]).includes(first!) ? (first as LayerName) : undefined
}

/** `{ type A, type B } from`: every name imported is a type (an import erased at run time, like `import type`). */
function namesOnlyTypes(clause: string): boolean {
  const m = /^\{([^}]*)\}\s*from\s*$/.exec(clause.trim())
  if (!m) return false
  const names = m[1]!
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
  return names.length > 0 && names.every((n) => n.startsWith('type '))
}

/** The import specifiers of a source text, each with whether the statement is type-only. */
export function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = []
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/gm))
    out.push({ spec: m[4]!, typeOnly: !!m[2] || namesOnlyTypes(m[3] ?? '') })
  for (const m of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false })
  return out
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : []
  })
}

/**
 * The part of helpers/ a path is in: its layer and the folder or file right under it (`client/http`,
 * `oracle/invariants.ts`,
 * `checks/context.ts`); a file right under helpers/ is a part of its own. Undefined outside helpers/.
 */
export function partOf(root: string, file: string): string | undefined {
  const rel = relative(join(root, 'helpers'), file).split(sep)
  if (rel[0] === '..' || rel.length === 0) return undefined
  const withTs = (n: string) => (n.endsWith('.ts') ? n : `${n}.ts`)
  if (rel.length === 1) return withTs(rel[0]!)
  return `${rel[0]!}/${rel.length === 2 ? withTs(rel[1]!) : rel[1]!}`
}

/** The arrows among the parts of helpers/ (self-imports left out). */
export function helperEdges(root: string): ImportEdge[] {
  const edges = new Map<string, ImportEdge>()
  for (const f of tsFiles(join(root, 'helpers'))) {
    const from = partOf(root, f)!
    for (const i of importsOf(readFileSync(f, 'utf8'))) {
      if (!i.spec.startsWith('.')) continue
      const target = resolve(dirname(f), i.spec)
      const to = partOf(
        root,
        existsSync(target) && statSync(target).isDirectory()
          ? join(target, 'index.ts')
          : target.endsWith('.ts')
            ? target
            : `${target}.ts`,
      )
      if (!to || to === from) continue
      const key = `${from}->${to}`
      const e = edges.get(key)
      edges.set(key, { from, to, typeOnly: (e ? e.typeOnly : true) && i.typeOnly })
    }
  }
  return [...edges.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to))
}

/** The strongly connected groups of more than one part (Tarjan): each is a cycle of imports. */
export function cycles(edges: readonly ImportEdge[]): string[][] {
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort()
  const next = new Map(nodes.map((n) => [n, edges.filter((e) => e.from === n).map((e) => e.to)]))
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const out: string[][] = []
  let counter = 0
  const visit = (v: string): void => {
    index.set(v, counter)
    low.set(v, counter)
    counter += 1
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        group.push(w)
      } while (w !== v)
      if (group.length > 1) out.push(group.sort())
    }
  }
  for (const n of nodes) if (!index.has(n)) visit(n)
  return out.sort((a, b) => b.length - a.length)
}

/** Arrows from a lower layer to a higher one (LAYERS). Parts outside the layers are left out. */
export function backArrows(
  edges: readonly ImportEdge[],
  layer: (part: string) => string | undefined = layerOf,
  order: readonly string[] = LAYERS,
): ImportEdge[] {
  const rank = (p: string) => {
    const l = layer(p)
    return l === undefined ? -1 : order.indexOf(l)
  }
  return edges.filter((e) => rank(e.from) >= 0 && rank(e.to) >= 0 && rank(e.from) < rank(e.to))
}

/**
 * runner/ files that start scripts/*.ts by path, and scripts/ files importing runner/ or test/ (a cycle tools cannot
 * see).
 */
export function runnerScriptLinks(root: string): {
  runnerStartsScripts: string[]
  scriptsImportRunner: number
  scriptsImportTest: string[]
} {
  const rel = (f: string) => relative(root, f).split(sep).join('/')
  const runnerStartsScripts = tsFiles(join(root, 'runner'))
    .filter((f) => /['"`]scripts\/[\w/-]+\.ts['"`]/.test(readFileSync(f, 'utf8')))
    .map(rel)
    .sort()
  let scriptsImportRunner = 0
  const scriptsImportTest = new Set<string>()
  for (const f of tsFiles(join(root, 'scripts'))) {
    for (const i of importsOf(readFileSync(f, 'utf8'))) {
      if (!i.spec.startsWith('.')) continue
      const top = relative(root, resolve(dirname(f), i.spec)).split(sep)[0]
      if (top === 'runner') scriptsImportRunner += 1
      if (top === 'test') scriptsImportTest.add(rel(f))
    }
  }
  return { runnerStartsScripts, scriptsImportRunner, scriptsImportTest: [...scriptsImportTest].sort() }
}

/**
 * The project's folders, each measured on its own (farm-studio's measure, issue 38): the nodes of a folder are its
 * children (each file and each sub-folder, a sub-folder standing for everything under it); an arrow is "a file under
 * child A imports a file under child B" (A != B), counted in the lowest folder holding both, so every import between
 * two files is counted in exactly one folder. A circle is a group of children that import each other (directly or
 * round about, type-only imports counted); an arrow back up is an arrow against the folder's order: the declared
 * order where the folder has one (FOLDER_ORDERS: the layers of helpers/, the client's parts), otherwise the order the
 * arrows themselves give, which only a circle can break (an arrow of a circle that closes it, found by a depth-first
 * walk in name order).
 */
export interface FolderGraph {
  folder: string
  nodes: number
  arrows: ImportEdge[]
  circles: string[][]
  backArrows: ImportEdge[]
}

/** The folders whose children have a declared order, lowest first (docs/architecture.md). */
export const FOLDER_ORDERS: Record<string, readonly string[]> = {
  helpers: LAYERS,
  'helpers/client': ['data', 'content', 'evidence', 'polling', 'http', 'auth', 'contracts'],
  // the runner by role: the domain of a run below what vitest loads, the commands above both, the program on top
  runner: ['run', 'vitest', 'commands', 'cli'],
}

/** The folders measured: every folder of the project's code, its harnesses (scripts/) and its tests (test/). */
export const MEASURED_TOPS = ['common', 'helpers', 'reference', 'runner', 'suites', 'scripts', 'test'] as const

function allFolders(dir: string): string[] {
  if (!existsSync(dir)) return []
  return [
    dir,
    ...readdirSync(dir).flatMap((n) => {
      const p = join(dir, n)
      return n !== 'node_modules' && statSync(p).isDirectory() ? allFolders(p) : []
    }),
  ]
}

function resolveImport(file: string, spec: string): string {
  const target = resolve(dirname(file), spec)
  if (target.endsWith('.ts')) return target
  if (existsSync(target) && statSync(target).isDirectory()) return join(target, 'index.ts')
  return `${target}.ts`
}

/**
 * Arrows back up a graph without a declared order: the arrows a depth-first walk (nodes in name order) finds closing a
 * circle.
 */
function closingArrows(edges: readonly ImportEdge[]): ImportEdge[] {
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort()
  const out: ImportEdge[] = []
  const state = new Map<string, 1 | 2>()
  const visit = (v: string): void => {
    state.set(v, 1)
    for (const e of edges.filter((x) => x.from === v)) {
      if (state.get(e.to) === 1) out.push(e)
      else if (!state.has(e.to)) visit(e.to)
    }
    state.set(v, 2)
  }
  for (const n of nodes) if (!state.has(n)) visit(n)
  return out
}

/** The graph of every folder under `tops` (relative to root), in path order. */
export function folderGraphs(root: string, tops: readonly string[] = MEASURED_TOPS): FolderGraph[] {
  const rel = (f: string) => relative(root, f).split(sep).join('/')
  const folders = tops.flatMap((t) => allFolders(join(root, t)))
  const edges = new Map<string, Map<string, ImportEdge>>(folders.map((f) => [rel(f), new Map()]))
  for (const t of tops) {
    for (const f of tsFiles(join(root, t))) {
      for (const i of importsOf(readFileSync(f, 'utf8'))) {
        if (!i.spec.startsWith('.')) continue
        const from = rel(f).split('/')
        const to = rel(resolveImport(f, i.spec)).split('/')
        let k = 0
        while (k < from.length - 1 && k < to.length - 1 && from[k] === to[k]) k += 1
        if (k === 0) continue // between top-level folders: the layout's rules (test/layout/imports.test.ts)
        const folder = from.slice(0, k).join('/')
        const g = edges.get(folder)
        if (!g) continue
        const a = from[k]!
        const b = to[k]!
        if (a === b) continue
        const key = `${a}->${b}`
        const e = g.get(key)
        g.set(key, { from: a, to: b, typeOnly: (e ? e.typeOnly : true) && i.typeOnly })
      }
    }
  }
  return folders.map((f) => {
    const folder = rel(f)
    const arrows = [...edges.get(folder)!.values()].sort(
      (a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to),
    )
    const order = FOLDER_ORDERS[folder]
    const bare = (n: string) => n.replace(/\.ts$/, '')
    const back = order
      ? backArrows(arrows, (p) => (order.includes(bare(p)) ? bare(p) : undefined), order)
      : closingArrows(arrows)
    const nodes = readdirSync(f).filter((n) => n.endsWith('.ts') || statSync(join(f, n)).isDirectory()).length
    return { folder, nodes, arrows, circles: cycles(arrows), backArrows: back }
  })
}

export interface GraphFigures {
  parts: number
  arrows: number
  backArrows: string[]
  cycles: string[][]
  /** The same without type-only arrows (what runs). */
  runtime: { arrows: number; backArrows: number; cycles: string[][] }
  runnerScripts: ReturnType<typeof runnerScriptLinks>
  /** Every measured folder with a circle or an arrow back up (folderGraphs). */
  folders: {
    measured: number
    circles: number
    backArrows: number
    offending: { folder: string; circles: string[][]; backArrows: string[] }[]
  }
}

export function figures(root: string): GraphFigures {
  const edges = helperEdges(root)
  const runtime = edges.filter((e) => !e.typeOnly)
  const parts = new Set(tsFiles(join(root, 'helpers')).map((f) => partOf(root, f)!))
  return {
    parts: parts.size,
    arrows: edges.length,
    backArrows: backArrows(edges).map((e) => `${e.from} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`),
    cycles: cycles(edges),
    runtime: { arrows: runtime.length, backArrows: backArrows(runtime).length, cycles: cycles(runtime) },
    runnerScripts: runnerScriptLinks(root),
    folders: folderFigures(root),
  }
}

/** The per-folder measure summed up: folders measured, circles, arrows back up, and the folders that have any. */
export function folderFigures(root: string, tops: readonly string[] = MEASURED_TOPS): GraphFigures['folders'] {
  const graphs = folderGraphs(root, tops)
  const offending = graphs
    .filter((g) => g.circles.length > 0 || g.backArrows.length > 0)
    .map((g) => ({
      folder: g.folder,
      circles: g.circles,
      backArrows: g.backArrows.map((e) => `${e.from} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`),
    }))
  return {
    measured: graphs.length,
    circles: graphs.reduce((n, g) => n + g.circles.length, 0),
    backArrows: graphs.reduce((n, g) => n + g.backArrows.length, 0),
    offending,
  }
}
