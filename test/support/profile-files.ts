import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { ConfigError, loadTargetConfig } from '../../common/config/target-config'
import { tempDir } from './temp-dir'

/** A fresh folder holding the given files (a string is written as is, anything else as JSON); returns its path. */
export function profileDir(files: Record<string, unknown>): string {
  const dir = tempDir('profile')
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content))
  return dir
}

/** The problems of the ConfigError that loadTargetConfig(env) throws; fails when it throws none. */
export function configProblems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadTargetConfig(env)
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError)
    return (e as ConfigError).problems
  }
  throw new Error('expected a ConfigError')
}
