#!/usr/bin/env node
// ledger-conformance: runs runner/cli/main.ts through tsx's loader. Files are resolved from this package, never
// from the current directory (reports go to ./reports of the current directory, or REPORTS_DIR).
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { register } from 'tsx/esm/api'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
register()
const { main } = await import(pathToFileURL(join(root, 'runner/cli/main.ts')).href)
process.exitCode = await main(process.argv.slice(2))
