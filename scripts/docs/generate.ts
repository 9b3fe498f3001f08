import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ENV_VARS, type EnvGroup } from '../../common/env-vars'
import { PROJECT_ROOT } from '../../common/project-root'
import { SPEC } from '../../common/spec'
import { INVARIANTS } from '../../helpers/oracle/invariants'
import { sourceRows } from '../../helpers/oracle/answer-sources'
import { INVARIANTS_FILE } from '../../runner/run/results/invariants'
import type { CatalogueEntry } from '../../runner/run/selection/catalogue'
import { citedSections } from '../../runner/run/selection/select'
import { renderExerciseTable } from './exercise-table'

/**
 * The parts of docs/ that restate code, generated from it (`npm run docs:generate`; test/scripts/docs-generated.test.ts
 * fails when the committed copy is stale). Each lives in a marked region of its page, between
 * `<!-- generated:NAME (npm run docs:generate) -->` and `<!-- /generated:NAME -->`; the prose around it is written by
 * hand and kept. The generated text names files, not lines: lines move with every edit, and `list` prints them.
 */

/** One generated region: the page it is in and how it is made. */
export interface Region {
  page: string
  name: string
  render(catalogue: readonly CatalogueEntry[]): string
}

const open = (name: string) => `<!-- generated:${name} (npm run docs:generate; edit the code, not this table) -->`
const close = (name: string) => `<!-- /generated:${name} -->`

/** A table cell: pipes escaped, one line. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

/** The files of the model whose rules judge each invariant (a source line naming the id), helpers/oracle/ first. */
export function judgingFiles(
  read: (file: string) => string = (f) => readFileSync(join(PROJECT_ROOT, f), 'utf8'),
): Map<string, string[]> {
  const dir = join(PROJECT_ROOT, 'helpers', 'oracle')
  const files = (existsSync(dir) ? readdirSync(dir) : [])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `helpers/oracle/${f}`)
    .filter((f) => f !== INVARIANTS_FILE)
    .sort()
  const out = new Map<string, string[]>()
  for (const f of files) {
    const text = read(f)
    for (const inv of INVARIANTS) if (text.includes(`'${inv.id}'`)) out.set(inv.id, [...(out.get(inv.id) ?? []), f])
  }
  return out
}

/** docs/model.md: the invariants of the model, from helpers/oracle/invariants.ts. */
export function renderInvariants(): string {
  const judged = judgingFiles()
  const rows = INVARIANTS.map(
    (i) =>
      `| ${i.id} | ${SPEC[i.spec]} ${i.section} | ${cell(i.requirement)} ` +
      `| ${(judged.get(i.id) ?? []).map((f) => `\`${f.replace('helpers/oracle/', '')}\``).join(', ') || '—'} |`,
  )
  return [
    `${INVARIANTS.length} invariants, declared in \`${INVARIANTS_FILE}\`; judged by the rules in \`helpers/oracle/\` ` +
      `(the files below).`,
    '',
    '| id | clause | requirement | judged in |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n')
}

/** The top-level sections a check cites ("§3, §4.2" -> 3, 4). */
function topSections(section: string): number[] {
  return [...new Set(citedSections(section).map((s) => Number(s.split('.')[0])))]
}

/** Checks of one product each, the same requirement in the same file: one row naming every id. */
function merged(entries: readonly CatalogueEntry[]): { ids: string[]; e: CatalogueEntry }[] {
  const rows = new Map<string, { ids: string[]; e: CatalogueEntry }>()
  for (const e of entries) {
    const key = `${e.file}\u0000${e.section}\u0000${e.requirement}`
    const row = rows.get(key)
    if (row) row.ids.push(e.id)
    else rows.set(key, { ids: [e.id], e })
  }
  return [...rows.values()]
}

/** docs/checks.md: every check of the catalogue (the reference profile's), by document and section. */
export function renderCatalogue(catalogue: readonly CatalogueEntry[]): string {
  const out: string[] = []
  const docs = Object.values(SPEC)
  out.push(
    `${catalogue.length} checks (with the reference profile's products; a check made once per product is one row). A ` +
      `check citing two sections is listed under each.`,
  )
  for (const doc of docs) {
    const own = catalogue.filter((e) => e.document === doc)
    const sections = [...new Set(own.flatMap((e) => topSections(e.section)))].sort((a, b) => a - b)
    out.push('', `### ${doc}`)
    for (const s of sections) {
      const rows = merged(own.filter((e) => topSections(e.section).includes(s)))
      out.push(
        '',
        `#### ${doc} §${s} (${rows.reduce((n, r) => n + r.ids.length, 0)} checks)`,
        '',
        '| id | cites | file | requirement |',
        '|---|---|---|---|',
      )
      for (const r of rows)
        out.push(`| ${r.ids.join(', ')} | ${r.e.section} | \`${r.e.file}\` | ${cell(r.e.requirement)} |`)
    }
  }
  return out.join('\n')
}

const GROUPS: { group: EnvGroup; title: string }[] = [
  { group: 'target', title: 'The target (the profile, and the fields of it a variable overrides)' },
  { group: 'run', title: 'The run and its reports' },
  { group: 'container', title: 'A target started as a container (docs/targets.md)' },
  { group: 'tool', title: 'Set by the tool for its own processes (never set them yourself)' },
  { group: 'standard', title: 'Variables of the platform the tool honours' },
]

/** docs/environment.md: every variable of common/env-vars.ts. */
export function renderEnvironment(): string {
  const out: string[] = [`${ENV_VARS.length} variables, from \`common/env-vars.ts\`.`]
  for (const g of GROUPS) {
    const vars = ENV_VARS.filter((v) => v.group === g.group)
    if (vars.length === 0) continue
    const overrides = vars.some((v) => 'overrides' in v)
    out.push(
      '',
      `### ${g.title}`,
      '',
      `| variable |${overrides ? ' overrides |' : ''} meaning | default | read by |`,
      `|---|${overrides ? '---|' : ''}---|---|---|`,
    )
    for (const v of vars)
      out.push(
        `| \`${v.name}\` |${
          overrides ? ` ${'overrides' in v ? `\`${v.overrides}\`` : ''} |` : ''
        } ${cell(v.meaning)} | ${'default' in v ? cell(v.default) : '—'} | ${v.readBy.join(', ')} |`,
      )
  }
  return out.join('\n')
}

/** The answer source table (helpers/oracle/answer-sources.ts; issue 39): one table per operation and status. */
export function renderFieldSources(): string {
  const rows = sourceRows()
  const kinds = new Map<string, number>()
  for (const r of rows) kinds.set(r.source.kind, (kinds.get(r.source.kind) ?? 0) + 1)
  const out = [
    `${rows.length} answer fields, declared ` +
      `in \`helpers/oracle/answer-sources.ts\`: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}.`,
  ]
  let answer = ''
  for (const r of rows) {
    if (r.answer !== answer) {
      answer = r.answer
      out.push('', `### ${answer}`, '', '| path | source | must be | judged by |', '|---|---|---|---|')
    }
    out.push(`| \`${r.path || '(the body)'}\` | ${r.source.kind} | ${cell(r.source.what)} | ${r.source.by} |`)
  }
  return out.join('\n')
}

export const REGIONS: readonly Region[] = [
  { page: 'docs/model.md', name: 'invariants', render: () => renderInvariants() },
  { page: 'docs/checks.md', name: 'checks', render: (c) => renderCatalogue(c) },
  { page: 'docs/environment.md', name: 'environment', render: () => renderEnvironment() },
  { page: 'docs/exercise.md', name: 'exercise', render: () => renderExerciseTable() },
  { page: 'docs/fields.md', name: 'fields', render: () => renderFieldSources() },
]

export class RegionError extends Error {}

/** `text` with the region `name` replaced by `body`; throws naming the page when the markers are missing. */
export function replaceRegion(text: string, name: string, body: string, page = 'the page'): string {
  const a = text.indexOf(open(name).slice(0, open(name).indexOf(' (')))
  const b = text.indexOf(close(name))
  if (a < 0 || b < a)
    throw new RegionError(`${page}: no region '${name}' (add the lines ${open(name)} and ${close(name)} where it goes)`)
  return `${text.slice(0, a)}${open(name)}\n${body}\n${text.slice(b)}`
}

/** Each page with its regions generated: page -> [committed text, generated text]. */
export function generatedPages(
  catalogue: readonly CatalogueEntry[],
  read: (page: string) => string = (p) => readFileSync(join(PROJECT_ROOT, p), 'utf8'),
): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>()
  for (const r of REGIONS) {
    const before = out.get(r.page)?.[0] ?? read(r.page)
    const current = out.get(r.page)?.[1] ?? before
    out.set(r.page, [before, replaceRegion(current, r.name, r.render(catalogue), r.page)])
  }
  return out
}
