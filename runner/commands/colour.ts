/**
 * The colour settings of the run's vitest child: colour only on a terminal. vitest's colour library colours any
 * output whose TERM is not "dumb", a file or a CI log included, unless NO_COLOR is set; so, as https://no-color.org
 * and the FORCE_COLOR convention say: NO_COLOR (any value) means no colour; FORCE_COLOR=0 or false means no colour,
 * any other FORCE_COLOR means colour; neither set: colour when stdout is a terminal.
 */
export function colourEnv(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): NodeJS.ProcessEnv {
  const out = { ...env }
  const force = env.FORCE_COLOR
  const off = env.NO_COLOR !== undefined || force === '0' || force === 'false' || (force === undefined && !stdoutIsTTY)
  if (off) {
    out.NO_COLOR = '1'
    delete out.FORCE_COLOR
  } else if (force !== undefined) {
    delete out.NO_COLOR
  }
  return out
}
