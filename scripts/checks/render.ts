import { isDeepStrictEqual } from 'node:util'
import type { CollectedCheck } from '../../runner/run/selection/catalogue'
import {
  AREA_NOTE,
  forProduct,
  PRODUCT,
  type AreaChecks,
  type StaticCheck,
  type StaticSegment,
} from '../../runner/run/selection/static-catalogue'

/**
 * The areas' static check metadata (suites/<area>/checks.json) from the checks as collected against a profile with
 * `products` and the main product `main` (at least two products, so that a check defined once per product is told from
 * one that is not). Pure.
 * Throws when a check defined per product cannot be written as a template that gives back what was collected.
 */
export function renderAreaChecks(
  collected: readonly CollectedCheck[],
  products: readonly string[],
  areas: readonly string[],
  main: string = products[0]!,
): Map<string, AreaChecks> {
  if (products.length < 2)
    throw new Error(`checks:generate needs a profile with at least two products (got ${products.join(', ') || 'none'})`)
  const out = new Map<string, AreaChecks>(areas.map((a) => [a, { area: a, note: AREA_NOTE, segments: [] }]))
  const byArea = new Map<string, CollectedCheck[]>()
  for (const c of collected) {
    const area = /^suites\/([^/]+)\//.exec(c.file)?.[1]
    if (!area) continue
    if (!out.has(area)) throw new Error(`${c.id}: ${c.file} is in no area folder under suites/`)
    byArea.set(area, [...(byArea.get(area) ?? []), c])
  }
  for (const [area, checks] of byArea) out.get(area)!.segments = segmentsOf(checks, products, main)
  return out
}

function plain(c: CollectedCheck): StaticCheck {
  const { product: _product, ...rest } = c
  return rest
}

/** A check for product `p` as a template: the product's name, as a word, in its id, requirement and lifecycle. */
export function templateOf(c: CollectedCheck, p: string): StaticCheck {
  const word = new RegExp(`(?<![A-Za-z0-9])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'g')
  const put = (s: string) => s.replace(word, PRODUCT)
  const base = plain(c)
  return {
    ...base,
    id: put(base.id),
    requirement: put(base.requirement),
    ...(base.lifecycle ? { lifecycle: put(base.lifecycle) } : {}),
  }
}

/** The segment the run `run` is, in one of the two orders, or undefined when it is neither. */
function segmentOf(run: readonly CollectedCheck[], products: readonly string[]): StaticSegment | undefined {
  const n = products.length
  if (run.length % n !== 0) return undefined
  const k = run.length / n
  for (const order of ['product-major', 'check-major'] as const) {
    const at = (i: number, j: number) => (order === 'product-major' ? run[i * k + j]! : run[j * n + i]!)
    const templates = Array.from({ length: k }, (_, j) => templateOf(at(0, j), products[0]!))
    const fits = templates.every((t, j) =>
      products.every((p, i) => at(i, j).product === p && isDeepStrictEqual(forProduct(t, p), plain(at(i, j)))),
    )
    if (fits && templates.every((t) => t.id.includes(PRODUCT))) return { perProduct: order, checks: templates }
  }
  return undefined
}

/** The checks of an area in definition order, as plain runs and per-product segments (the longest that fits first). */
function segmentsOf(checks: readonly CollectedCheck[], products: readonly string[], main: string): StaticSegment[] {
  const out: StaticSegment[] = []
  // a check defined once names the profile's main product (t.config.product) where it names one
  const push = (c: CollectedCheck) => {
    const last = out[out.length - 1]
    if (last && !('perProduct' in last)) last.checks.push(templateOf(c, main))
    else out.push({ checks: [templateOf(c, main)] })
  }
  let i = 0
  while (i < checks.length) {
    if (!checks[i]!.product) {
      push(checks[i]!)
      i += 1
      continue
    }
    let end = i
    while (end < checks.length && checks[end]!.product) end += 1
    let taken: StaticSegment | undefined
    let len = 0
    for (let L = end - i; L >= products.length && !taken; L -= 1) {
      taken = segmentOf(checks.slice(i, i + L), products)
      len = L
    }
    if (taken) {
      out.push(taken)
      i += len
    } else {
      // a check for one product (the profile's main one): its template names the main product
      push(checks[i]!)
      i += 1
    }
  }
  return out
}

/** A file's text: stable JSON, one check per line group. */
export function areaChecksText(a: AreaChecks): string {
  return `${JSON.stringify(a, null, 2)}\n`
}
