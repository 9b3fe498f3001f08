import { SetupFailure } from './setup'

/**
 * One requirement checked over many operations (every operation rejects a request without a valid token). The
 * group's representative check runs first; when it FAILS, the other checks of the group are BLOCKED with it as
 * owner instead of failing with it: one defect, one failure (docs/mutation.md, "One requirement over many
 * operations"). Nothing is hidden while the representative passes: a member that fails then fails. A blocked
 * member sends no request. One instance per suite file (per target in a multi-target run).
 */
export class RepresentedGroups {
  private readonly failed = new Map<string, string>()

  /** Runs the representative check of `group` and records its failure (not a block or a skip) for the group. */
  async representative(group: string, id: string, body: () => Promise<void>): Promise<void> {
    try {
      await body()
    } catch (e) {
      const name = (e as { name?: string } | undefined)?.name
      if (!(e instanceof SetupFailure) && name !== 'SkipError') this.failed.set(group, id)
      throw e
    }
  }

  /** The check that failed for `group`, if its representative failed. */
  failedRepresentative(group: string): string | undefined {
    return this.failed.get(group)
  }

  /** Runs a member check of `group`, or blocks it (owner: the representative) when the representative failed. */
  async member(group: string, what: string, body: () => Promise<void>): Promise<void> {
    const owner = this.failed.get(group)
    if (owner)
      throw new SetupFailure({
        reason:
          `not probed: ${what} was already violated by ${owner}, the representative of this requirement; one ` +
          `defect is one failure`,
        owner,
      })
    await body()
  }
}
