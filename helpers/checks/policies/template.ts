/**
 * Request bodies from the profile are JSON templates. A string that is exactly "{{name}}" is
 * replaced by the variable's value with its type (number, object, ...); "{{name}}" inside a longer
 * string is replaced by its text. An unknown variable is an error (a profile mistake, not a target fault).
 */
export type TemplateVars = Record<string, unknown>

const WHOLE = /^\{\{([A-Za-z0-9_.-]+)\}\}$/
const PART = /\{\{([A-Za-z0-9_.-]+)\}\}/g

function lookup(vars: TemplateVars, name: string): unknown {
  if (!Object.hasOwn(vars, name)) throw new Error(`template variable {{${name}}} is not defined (have: ${Object.keys(vars).join(', ')})`)
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

/** Deep merge of plain objects (arrays and scalars of `patch` replace); returns a new value. */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (patch === undefined) return structuredClone(base)
  if (!isPlainObject(base) || !isPlainObject(patch)) return structuredClone(patch) as T
  const out: Record<string, unknown> = structuredClone(base) as Record<string, unknown>
  for (const [k, v] of Object.entries(patch)) out[k] = k in out ? deepMerge(out[k], v) : structuredClone(v)
  return out as T
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}
