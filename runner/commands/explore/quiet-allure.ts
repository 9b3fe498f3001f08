import { MessageTestRuntime, getGlobalTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime'
import type { RuntimeMessage } from 'allure-js-commons/sdk'

/** Allure's runtime for code run outside vitest: the messages (steps, attachments of the flows) go nowhere. */
class DiscardingRuntime extends MessageTestRuntime {
  override async sendMessage(_message: RuntimeMessage): Promise<void> {}
}

/**
 * Exploration drives the suites' flows outside vitest, where allure-js-commons has no test runtime: each attachment a
 * flow makes (evidence, exchanges) would print "no test runtime is found" on the console. Explore writes no Allure
 * results (its replay is its report), so the messages are discarded. Leaves a runtime that is already set (a run
 * under vitest) alone.
 */
export function discardAllureOutsideTests(): void {
  if (getGlobalTestRuntime() instanceof MessageTestRuntime) return
  setGlobalTestRuntime(new DiscardingRuntime())
}
