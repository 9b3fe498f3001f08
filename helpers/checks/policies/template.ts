import { deepMerge, isPlainObject } from '../../../common/data/deep-merge'

/** deepMerge lives with the data utilities (common/data/deep-merge.ts): the policies settings merge with it too. */
export { deepMerge }

/**
 * Request bodies from the profile are JSON templates. A string that is exactly "{{name}}" is
 * replaced by the variable's value with its type (number, object, ...); "{{name}}" inside a longer
 * string is replaced by its text. An unknown variable is an error (a profile mistake, not a target fault).
 */
export type TemplateVars = Record<string, unknown>

const WHOLE = /^\{\{([A-Za-z0-9_.-]+)\}\}$/
const PART = /\{\{([A-Za-z0-9_.-]+)\}\}/g

function lookup(vars: TemplateVars, name: string): unknown {
  if (!Object.hasOwn(vars, name))
    throw new Error(`template variable {{${name}}} is not defined (have: ${Object.keys(vars).join(', ')})`)
  return vars[name]
}

export function fillTemplate(template: unknown, vars: TemplateVars): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template)
    if (whole) return structuredClone(lookup(vars, whole[1]!))
    return template.replace(PART, (_m, name: string) => String(lookup(vars, name)))
  }
  if (Array.isArray(template)) return template.map((v) => fillTemplate(v, vars))
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, vars)]))
  }
  return template
}
