import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The one AsyncLocalStorage of the check library: every value carried through the awaits of a unit of work (the running
 * check, its findings, a probe's purpose, the in-flight tracker) is a key of one store. On Node 20 each
 * AsyncLocalStorage in use copies its value onto every promise the program creates; one store for all of them copies
 * once (docs/performance.md).
 */
const storage = new AsyncLocalStorage<Readonly<Record<symbol, unknown>>>()

/** A value carried through the awaits of `run`'s body, like an AsyncLocalStorage of its own. */
export class ScopedValue<T> {
  private readonly key: symbol

  constructor(name: string) {
    this.key = Symbol(name)
  }

  /** Runs body with this value set; the other scoped values stay as they are. */
  run<R>(value: T, body: () => R): R {
    return storage.run({ ...storage.getStore(), [this.key]: value }, body)
  }

  /** The value set by the innermost run around here, if any. */
  get(): T | undefined {
    return storage.getStore()?.[this.key] as T | undefined
  }
}
