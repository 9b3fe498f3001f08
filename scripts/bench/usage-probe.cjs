// Preloaded into a measured run (NODE_OPTIONS=--require, scripts/bench.ts): when the process exits, writes its own
// resource usage (getrusage: CPU time of every thread, the vitest workers included; peak resident memory) to the file
// named by LC_BENCH_USAGE_FILE. Worker threads inherit the preload; only the main thread writes.
'use strict'
const { isMainThread } = require('node:worker_threads')
const file = process.env.LC_BENCH_USAGE_FILE
if (isMainThread && file) {
  process.on('exit', () => {
    try {
      require('node:fs').writeFileSync(file, JSON.stringify(process.resourceUsage()))
    } catch {
      // the bench reports the figure as missing
    }
  })
}
