import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of the project (package.json, fixtures/): where its own data files are read from. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
