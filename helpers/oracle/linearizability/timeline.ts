import { replay, type CheckResult, type Model, type Operation } from './checker'

/**
 * A history's timeline, as Porcupine's visualisation shows one: every operation as a bar over real time (who
 * invoked it, what it asked and what it saw), then the orders the search tried: the longest sequences the model
 * accepted, the state each reached, and why none of the operations left could follow. Compact text for the console
 * finding, an HTML fragment for the Allure attachment and conformance.html.
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
  if (outcome.result === 'illegal') return `NOT linearizable: no order of these operations explains every answer (${outcome.steps} steps searched)`
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
        const why = last === undefined ? 'the model refused the order' : t.model.step(last, op.input, op.output) !== undefined ? (early ? 'it returned before an operation of the order began' : 'it fits here, but then the rest cannot follow') : (t.model.explain?.(last, op.input, op.output) ?? 'the model cannot explain its answer here')
        return { id, why }
      })
    return { order, state: last === undefined ? '?' : t.model.describeState(last), stuck }
  })
}

/** The compact text: one line per operation with its bar, then the orders tried. */
export function timelineText<S, I, O>(t: TimelineInput<S, I, O>): string {
  const lines = [`${t.resource} (${t.model.name}): ${verdictOf(t.outcome)}`]
  if (t.ops.length === 0) return lines[0]!
  const { t0, total } = span(t.ops)
  lines.push(`  time 0 .. ${total.toFixed(1)} ms; each bar from invocation to answer`)
  t.ops.forEach((op, i) => {
    const a = Math.floor(((op.call - t0) / total) * (WIDTH - 1))
    const b = Math.max(a, Math.ceil(((op.ret - t0) / total) * (WIDTH - 1)))
    const bar = `${' '.repeat(a)}${'='.repeat(b - a + 1)}`.padEnd(WIDTH)
    lines.push(`  #${i} |${bar}| ${short(op.caller)}: ${t.model.describeOperation(op.input, op.output)} [${(op.call - t0).toFixed(1)}..${(op.ret - t0).toFixed(1)} ms]`)
  })
  const overlaps = t.ops.flatMap((a, i) => t.ops.slice(i + 1).flatMap((b, d) => (a.call <= b.ret && b.call <= a.ret ? [`#${i}~#${i + d + 1}`] : [])))
  lines.push(`  overlapping: ${overlaps.length > 0 ? overlaps.join(' ') : 'none (a sequential history)'}`)
  for (const tried of triedOrders(t)) {
    lines.push(`  order tried: ${tried.order.length > 0 ? tried.order.map((i) => `#${i}`).join(' -> ') : '(nothing could go first)'} => ${tried.state}`)
    for (const s of tried.stuck) lines.push(`    then #${s.id} cannot follow: ${s.why}`)
  }
  return lines.join('\n')
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The HTML fragment: a bar per operation over real time, coloured by caller, then the orders tried. */
export function timelineHtml<S, I, O>(t: TimelineInput<S, I, O>): string {
  const out = [`<div class="linearizability"><p><b>${esc(t.resource)}</b> (${esc(t.model.name)}): ${esc(verdictOf(t.outcome))}</p>`]
  if (t.ops.length > 0) {
    const { t0, total } = span(t.ops)
    const callers = [...new Set(t.ops.map((o) => o.caller))]
    out.push('<div style="position:relative;font:12px monospace">')
    t.ops.forEach((op, i) => {
      const left = ((op.call - t0) / total) * 60
      const width = Math.max(((op.ret - op.call) / total) * 60, 0.5)
      const hue = (callers.indexOf(op.caller) * 97) % 360
      const label = `#${i} ${short(op.caller)}: ${t.model.describeOperation(op.input, op.output)}`
      out.push(`<div style="height:18px;position:relative" title="${esc(`${label} [${(op.call - t0).toFixed(1)}..${(op.ret - t0).toFixed(1)} ms]`)}"><span style="position:absolute;left:${left.toFixed(2)}%;width:${width.toFixed(2)}%;height:14px;background:hsl(${hue},60%,70%);border:1px solid hsl(${hue},60%,40%)"></span><span style="position:absolute;left:62%;white-space:nowrap">${esc(label)}</span></div>`)
    })
    out.push('</div>')
    const tried = triedOrders(t)
    if (tried.length > 0) {
      out.push('<ol class="orders-tried">')
      for (const o of tried) out.push(`<li>${esc(o.order.map((i) => `#${i}`).join(' → ') || '(nothing could go first)')} ⇒ ${esc(o.state)}<ul>${o.stuck.map((s) => `<li>#${s.id} cannot follow: ${esc(s.why)}</li>`).join('')}</ul></li>`)
      out.push('</ol>')
    }
  }
  out.push('</div>')
  return out.join('')
}
