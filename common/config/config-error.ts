/**
 * A bad profile or environment variable. The message names every offending field. A module of its own: vitest.config.ts
 * reaches it (through runner/run/targets/profiles.ts) without the profile loader and its schema compiler, whose text
 * vitest would otherwise hash with every module it serves (the config's files are part of its module cache key).
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid target configuration; no request was sent:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}
