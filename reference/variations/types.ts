import type { ReferenceOptions } from '../options'

/** Generic rewrites of the wire a conforming service may show (applied by reference/variations/wire.ts). */
export type WireRewrite =
  | 'extra-fields'
  | 'key-order'
  | 'extra-headers'
  | 'charset'
  | 'chunked'
  | 'pretty-json'
  | 'unicode-escapes'
  | 'connection-close'

/** Reference options a variation may set (everything but where it listens, its defects and its variations). */
export type VariationOptions = Partial<
  Omit<ReferenceOptions, 'defects' | 'variations' | 'host' | 'port' | 'logRequests' | 'fieldProbe'>
>

/**
 * One benign variation: a way a CONFORMING service may differ from the reference.
 * The conformance suite must stay green under every one (npm run mutation reports false alarms).
 */
export interface VariationInfo {
  description: string
  /** Why a conforming service may do this (what in the specs allows it). */
  allowedBecause: string
  /** Reference options it sets. */
  options?: VariationOptions
  /** Rewrites of responses it switches on. */
  wire?: WireRewrite[]
  /**
   * Target-profile fields a target with this variation would document (deep-merged into the
   * base profile; arrays replace). The harness writes the merged profile next to the run.
   */
  profile?: Record<string, unknown>
}
