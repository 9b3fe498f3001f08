import { replay, type CheckResult, type Model, type Operation } from './checker'
import type { TimelineRecord } from '../../client/http/timeline-record'
import { safeHtml } from '../../client/evidence/neutralise'

/**
 * A history's timeline, as Porcupine's visualisation shows one: every operation as a bar over real time (who
 * invoked it, what it asked and what it saw), then the orders the search tried: the longest sequences the model
 * accepted, the state each reached, and why none of the operations left could follow. Made once as data (a
 * TimelineRecord), rendered as compact text for the console finding and as lanes (HTML) for conformance.html and the
 * Allure attachment.
 */

export interface TimelineInput<S, I, O> {
  /** The resource (a quote, a payment, a subscription). */
  resource: string
  model: Model<S, I, O>
  ops: readonly Operation<I, O>[]
  outcome: CheckResult
}

const WIDTH = 32

/** A caller as the timeline shows it: the check's own title (not its file and blocks), at most 48 characters. */
function short(caller: string): string {
  const own = caller.split(' [')[0]!.split(' > ').at(-1)!
  return own.length > 48 ? `${own.slice(0, 47)}…` : own
}
const MAX_PARTIALS = 3

function span(ops: readonly Operation<unknown, unknown>[]): { t0: number; total: number } {
  const t0 = Math.min(...ops.map((o) => o.call))
  const t1 = Math.max(...ops.map((o) => o.ret))
  return { t0, total: Math.max(t1 - t0, 0.001) }
}

function verdictOf(outcome: CheckResult): string {
  if (outcome.result === 'ok') return `linearizable (${outcome.steps} steps)`
  if (outcome.result === 'illegal')
    return `NOT linearizable: no order of these operations explains every answer (${outcome.steps} steps searched)`
  return `undecided: the search stopped after ${outcome.reason} (${outcome.steps} steps): INCONCLUSIVE`
}

interface Tried {
  order: number[]
  state: string
  /** The operations left, each with why it cannot come next. */
  stuck: { id: number; why: string }[]
}

function triedOrders<S, I, O>(t: TimelineInput<S, I, O>): Tried[] {
  if (t.outcome.result !== 'illegal') return []
  const partials = [...t.outcome.partials].sort((a, b) => b.length - a.length).slice(0, MAX_PARTIALS)
  return partials.map((order) => {
    const states = replay(t.model, t.ops, order)
    const last = order.length > 0 ? states.at(-1) : t.model.init()
    const done = new Set(order)
    const lastCall = Math.max(-Infinity, ...order.map((i) => t.ops[i]!.call))
    const stuck = t.ops
      .map((op, id) => ({ op, id }))
      .filter(({ id }) => !done.has(id))
      .map(({ op, id }) => {
        // an operation that returned before one of the order was invoked should have come earlier
        const early = op.ret < lastCall
        const why =
          last === undefined
            ? 'the model refused the order'
            : t.model.step(last, op.input, op.output) !== undefined
              ? early
                ? 'it returned before an operation of the order began'
                : 'it fits here, but then the rest cannot follow'
              : (t.model.explain?.(last, op.input, op.output) ?? 'the model cannot explain its answer here')
        return { id, why }
      })
    return { order, state: last === undefined ? '?' : t.model.describeState(last), stuck }
  })
}

/**
 * The timeline as data (helpers/client/http/timeline-record.ts): what every report renders. `shrunk`: the history
 * before shrinking (its size) and what the shrinking dropped (helpers/oracle/linearizability/shrink.ts).
 */
export function timelineRecord<S, I, O>(
  t: TimelineInput<S, I, O>,
  shrunk?: { total: number; dropped?: string },
): TimelineRecord {
  const { t0, total } = t.ops.length > 0 ? span(t.ops) : { t0: 0, total: 0 }
  return {
    resource: t.resource,
    model: t.model.name,
    result: t.outcome.result,
    verdict: verdictOf(t.outcome),
    total: shrunk?.total ?? t.ops.length,
    ...(shrunk?.dropped ? { shrunk: shrunk.dropped } : {}),
    spanMs: round(total),
    ops: t.ops.map((op, n) => ({
      n,
      caller: short(op.caller),
      what: t.model.describeOperation(op.input, op.output),
      startMs: round(op.call - t0),
      endMs: round(op.ret - t0),
    })),
    orders: triedOrders(t).map((o) => ({
      order: o.order,
      state: o.state,
      stuck: o.stuck.map((x) => ({ n: x.id, why: x.why })),
    })),
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10

/** The pairs of operations whose intervals intersect: only those may be ordered either way. */
function overlapsOf(r: TimelineRecord): string[] {
  return r.ops.flatMap((a, i) =>
    r.ops.slice(i + 1).flatMap((b) => (a.startMs <= b.endMs && b.startMs <= a.endMs ? [`#${a.n}~#${b.n}`] : [])),
  )
}

/**
 * The compact text of a record: one line per operation with its bar, then the orders tried (the console, checks.json).
 */
export function renderTimelineText(r: TimelineRecord): string {
  const lines = [`${r.resource} (${r.model}): ${r.verdict}`]
  if (r.ops.length === 0) return lines[0]!
  const total = Math.max(r.spanMs, 0.001)
  if (r.shrunk)
    lines.push(
      `  shrunk: ${r.ops.length} of the ${r.total} operations shown (dropped ${r.shrunk}; the rest still fails)`,
    )
  lines.push(`  time 0 .. ${r.spanMs.toFixed(1)} ms; each bar from invocation to answer`)
  for (const op of r.ops) {
    const a = Math.floor((op.startMs / total) * (WIDTH - 1))
    const b = Math.max(a, Math.ceil((op.endMs / total) * (WIDTH - 1)))
    const bar = `${' '.repeat(a)}${'='.repeat(b - a + 1)}`.padEnd(WIDTH)
    lines.push(`  #${op.n} |${bar}| ${op.caller}: ${op.what} [${op.startMs.toFixed(1)}..${op.endMs.toFixed(1)} ms]`)
  }
  const overlaps = overlapsOf(r)
  lines.push(`  overlapping: ${overlaps.length > 0 ? overlaps.join(' ') : 'none (a sequential history)'}`)
  for (const tried of r.orders) {
    lines.push(
      `  order tried: ${
        tried.order.length > 0 ? tried.order.map((i) => `#${i}`).join(' -> ') : '(nothing could go first)'
      } => ${tried.state}`,
    )
    for (const s of tried.stuck) lines.push(`    then #${s.n} cannot follow: ${s.why}`)
  }
  return lines.join('\n')
}

/** The compact text of a history's timeline. */
export function timelineText<S, I, O>(t: TimelineInput<S, I, O>): string {
  return renderTimelineText(timelineRecord(t))
}

/** HTML text: the run's secrets masked, then escaped (helpers/client/evidence/neutralise.ts, the one rule). */
const esc = (s: string) => safeHtml(s)

/**
 * Where the longest order puts each operation in time: its linearization point, as Porcupine draws it. The points
 * follow the order and lie within each operation's interval (the earliest instant at or after the previous point).
 */
export function linearizationPoints(r: TimelineRecord): Map<number, number> {
  const points = new Map<number, number>()
  let at = 0
  for (const n of r.orders[0]?.order ?? []) {
    const op = r.ops[n]
    if (!op) continue
    at = Math.min(Math.max(at, op.startMs), op.endMs)
    points.set(n, at)
  }
  return points
}

const LANE_HEIGHT = 34
const LABEL_WIDTH = 170
const PLOT_WIDTH = 640

/**
 * The HTML of a record, after Porcupine's visualisation: one lane per caller, each operation a bar from its invocation
 * to its answer with what it asked and saw, the linearization points of the longest order found (numbered in its
 * order, the operations it could not place outlined in red), then the orders tried with why nothing could follow.
 * Self-contained (an inline SVG, no script), for conformance.html and the Allure attachment.
 */
export function renderTimelineHtml(r: TimelineRecord): string {
  const out = [
    `<figure class="timeline" data-resource="${esc(r.resource)}" ` +
      `data-result="${r.result}"><figcaption><b>${esc(r.resource)}</b> ` +
      `(${esc(r.model)}): ${esc(r.verdict)}${
        r.shrunk
          ? `<br><span class="shrunk">shrunk: ${r.ops.length} of ` +
            `the ${r.total} operations shown (dropped ${esc(r.shrunk)}; the rest still ` +
            `fails)</span>`
          : ''
      }</figcaption>`,
  ]
  if (r.ops.length > 0) {
    const callers = [...new Set(r.ops.map((o) => o.caller))]
    const total = Math.max(r.spanMs, 0.001)
    const x = (ms: number) => LABEL_WIDTH + (ms / total) * PLOT_WIDTH
    const points = linearizationPoints(r)
    const placed = new Set(points.keys())
    const height = callers.length * LANE_HEIGHT + 24
    // an operation's words start on its bar, or end before it when they would run past the plot (a late, short bar)
    const label = (x0: number, w: number, y: number, text: string) =>
      x0 + text.length * 6.6 > LABEL_WIDTH + PLOT_WIDTH + 20 && x0 - LABEL_WIDTH > PLOT_WIDTH / 3
        ? `<text x="${(x0 - 3).toFixed(1)}" y="${y}" text-anchor="end">${esc(text)}</text>`
        : `<text x="${(x0 + 3).toFixed(1)}" y="${y}">${esc(text)}</text>`
    const svg: string[] = [
      `<svg class="timeline-lanes" role="img" aria-label="${esc(`timeline of ${r.resource}`)}" ` +
        `width="${LABEL_WIDTH + PLOT_WIDTH + 20}" height="${height}" viewBox="0 ` +
        `0 ${LABEL_WIDTH + PLOT_WIDTH + 20} ${height}" font-family="monospace" font-size="11">`,
    ]
    callers.forEach((c, lane) => {
      const y = lane * LANE_HEIGHT
      svg.push(
        `<g class="lane" data-caller="${esc(c)}"><line x1="0" y1="${y + LANE_HEIGHT - 2}" ` +
          `x2="${LABEL_WIDTH + PLOT_WIDTH}" y2="${y + LANE_HEIGHT - 2}" stroke="#eee"/><text x="4" ` +
          `y="${y + 20}">${esc(c.length > 24 ? `${c.slice(0, 23)}…` : c)}</text></g>`,
      )
    })
    for (const op of r.ops) {
      const lane = callers.indexOf(op.caller)
      const y = lane * LANE_HEIGHT + 4
      const hue = (lane * 97) % 360
      const x0 = x(op.startMs)
      const w = Math.max(x(op.endMs) - x0, 3)
      const stroke = placed.has(op.n) || r.result !== 'illegal' ? `hsl(${hue},55%,35%)` : '#c62828'
      const title = `#${op.n} ${op.caller}: ${op.what} [${op.startMs.toFixed(1)}..${op.endMs.toFixed(1)} ms]`
      svg.push(
        `<g class="op" data-op="${op.n}"><title>${esc(title)}</title><rect x="${x0.toFixed(1)}" y="${y}" ` +
          `width="${w.toFixed(1)}" height="22" rx="3" fill="hsl(${hue},60%,85%)" stroke="${stroke}" ` +
          `stroke-width="${placed.has(op.n) || r.result !== 'illegal' ? 1 : 2}"/>${label(x0, w, y + 15, `#${op.n} ${op.what.length > 60 ? `${op.what.slice(0, 59)}…` : op.what}`)}</g>`,
      )
    }
    const order = r.orders[0]?.order ?? []
    order.forEach((n, i) => {
      const at = points.get(n)
      const op = r.ops[n]
      if (at === undefined || !op) return
      const y = callers.indexOf(op.caller) * LANE_HEIGHT + 2
      svg.push(
        `<g class="point" data-op="${n}" data-rank="${i + 1}"><line x1="${x(at).toFixed(1)}" y1="${y}" ` +
          `x2="${x(at).toFixed(1)}" y2="${y + 26}" stroke="#1565c0" stroke-width="2"/><text ` +
          `x="${(x(at) + 2).toFixed(1)}" y="${y + 33}" fill="#1565c0">${i + 1}</text></g>`,
      )
    })
    svg.push(
      `<text x="${LABEL_WIDTH}" y="${height - 4}" fill="#757575">0 ms</text><text x="${LABEL_WIDTH + PLOT_WIDTH}" ` +
        `y="${height - 4}" text-anchor="end" fill="#757575">${r.spanMs.toFixed(1)} ms</text></svg>`,
    )
    out.push(svg.join(''))
    const overlaps = overlapsOf(r)
    out.push(
      `<p class="overlapping">overlapping: ${esc(
        overlaps.length > 0 ? overlaps.join(' ') : 'none (a sequential history)',
      )}; blue marks: the linearization points of the longest order found${
        r.result === 'illegal' ? ', red outline: an operation it could not place' : ''
      }</p>`,
    )
    if (r.orders.length > 0) {
      out.push('<ol class="orders-tried">')
      for (const o of r.orders)
        out.push(
          `<li>${esc(o.order.map((i) => `#${i}`).join(' → ') || '(nothing could go first)')} ` +
            `⇒ ${esc(o.state)}<ul>${o.stuck
              .map((s) => `<li>#${s.n} cannot ` + `follow: ${esc(s.why)}</li>`)
              .join('')}</ul></li>`,
        )
      out.push('</ol>')
    }
  }
  out.push('</figure>')
  return out.join('')
}

/** The HTML of a history's timeline. */
export function timelineHtml<S, I, O>(t: TimelineInput<S, I, O>): string {
  return renderTimelineHtml(timelineRecord(t))
}
