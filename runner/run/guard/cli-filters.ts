/** vitest options that always take a value: the next argument is that value, not a file filter. */
const VALUE_OPTIONS = new Set([
  '--config',
  '-c',
  '--root',
  '-r',
  '--dir',
  '--reporter',
  '--outputFile',
  '-t',
  '--testNamePattern',
  '--project',
  '--pool',
  '--shard',
  '--environment',
  '--maxWorkers',
  '--minWorkers',
  '--testTimeout',
  '--hookTimeout',
  '--teardownTimeout',
  '--retry',
  '--mode',
  '--exclude',
  '--sequence.seed',
  '--api.port',
  '--api.host',
  '--inspect-brk',
  '--inspect',
  '--maxConcurrency',
  '--slowTestThreshold',
  '--tags-filter',
  '--configLoader',
])
const COMMANDS = new Set(['run', 'watch', 'dev', 'related', 'bench', 'list'])

/**
 * The file filters of a vitest command line (the positional arguments). Errs on the safe side: an
 * argument it cannot place is taken as a filter, which can only widen the set of files the guard sees.
 */
export function cliFileFilters(argv: readonly string[]): string[] {
  const args = argv.slice(2)
  const filters: string[] = []
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]!
    if (i === 0 && COMMANDS.has(a)) continue
    if (a === '--') continue
    if (a.startsWith('-')) {
      if (!a.includes('=') && VALUE_OPTIONS.has(a)) i += 1
      continue
    }
    filters.push(a)
  }
  return filters
}
