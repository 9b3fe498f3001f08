import { RE2JS } from 're2js'

/** A compiled pattern, as ajv calls it. */
export interface LinearRegExp {
  test(input: string): boolean
  toString(): string
}

/** A pattern of a schema that the linear-time engine cannot run (backreferences, lookaround): it is refused. */
export class RefusedPattern extends Error {
  constructor(
    readonly pattern: string,
    detail: string,
  ) {
    super(
      `pattern ${JSON.stringify(pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern)} refused: it cannot ` +
        `run on the linear-time engine (${detail}); a construct that needs backtracking could take forever on a ` +
        `hostile input`,
    )
    this.name = 'RefusedPattern'
  }
}

/**
 * The regular-expression engine of every ajv of the project (ajv option code.regExp): RE2 semantics (re2js), linear
 * in the input whatever the pattern, so a schema a target publishes cannot hang a check with a catastrophic
 * pattern. A pattern RE2 cannot express is refused when the schema is compiled.
 */
export function linearRegExp(pattern: string, _flags?: string): LinearRegExp {
  try {
    const re = RE2JS.compile(pattern)
    // ajv keys compiled patterns by toString(): each must have its own
    return { test: (input: string) => re.test(input), toString: () => `/${pattern}/${_flags ?? ''}` }
  } catch (e) {
    throw new RefusedPattern(pattern, (e as Error).message)
  }
}
// ajv names the engine by this in the code it generates
linearRegExp.code = 'linearRegExp'
