// Preloaded into a measured run (NODE_OPTIONS=--require, scripts/bench.ts): when the process exits, writes its own
// resource usage (getrusage: CPU time of every thread, the vitest workers included; peak resident memory) to the file
// named by LC_BENCH_USAGE_FILE. Worker threads inherit the preload; only the main thread writes. A run started as users
// start it (`ledger-conformance run`) is two processes, the CLI and its vitest child, both preloaded: the child exits
// first, and the CLI adds its own CPU time to the child's (peak memory: the larger of the two).
'use strict'
const { isMainThread } = require('node:worker_threads')
const file = process.env.LC_BENCH_USAGE_FILE
if (isMainThread && file) {
  process.on('exit', () => {
    const fs = require('node:fs')
    try {
      const own = process.resourceUsage()
      let before
      try {
        before = JSON.parse(fs.readFileSync(file, 'utf8'))
      } catch {
        before = undefined
      }
      const usage = before
        ? {
            ...own,
            userCPUTime: own.userCPUTime + before.userCPUTime,
            systemCPUTime: own.systemCPUTime + before.systemCPUTime,
            maxRSS: Math.max(own.maxRSS, before.maxRSS),
            processes: (before.processes ?? 1) + 1,
          }
        : own
      fs.writeFileSync(file, JSON.stringify(usage))
    } catch {
      // the bench reports the figure as missing
    }
  })
}
