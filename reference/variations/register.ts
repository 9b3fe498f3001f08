import type { FastifyInstance } from 'fastify'
import type { ReferenceContext } from '../context'
import { assertVariationNames, wireRewrites } from './catalogue'
import { registerFieldProbe } from './field-probe'
import { registerWireRewrites } from './wire'

/**
 * Switches on the wire rewrites of the reference's variations (ctx.options.variations).
 * The variations' other options (ids, timings, spellings) are plain reference options, already set.
 * Called once, before any route is registered.
 */
export function registerVariations(app: FastifyInstance, ctx: ReferenceContext): void {
  const names = ctx.options.variations
  assertVariationNames(names)
  registerWireRewrites(app, wireRewrites(names))
  // the field-perturbation harness's probe (an in-process option; none in any other run), after the rewrites
  registerFieldProbe(app, ctx)
}
