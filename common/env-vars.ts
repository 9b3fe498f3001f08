/**
 * Every environment variable the project reads, in one typed list: its meaning, its default, and which commands read
 * it. The CLI's help texts (runner/commands/*: `envHelp`), the generated table of docs/environment.md
 * (`npm run docs:generate`), the profile loader (common/config/env.ts), the container target (runner/run/container/
 * target-env.ts) and the harnesses that start a clean run (RUN_VARS) read it. test/common/env-vars.test.ts fails when
 * the code reads a variable this list does not name.
 */

/** Who reads a variable: a command of the CLI (`ledger-conformance <command>`) or an npm script of the project. */
export type EnvReader =
  | 'run'
  | 'list'
  | 'validate'
  | 'acceptance'
  | 'report'
  | 'explore'
  | 'replay'
  | 'npm run conformance:container'
  | 'npm run conformance:sharded'
  | 'npm run bench'
  | 'reference service'

/**
 * - target: which service is checked and as whom (overrides the profile's fields);
 * - run: how the run behaves and where it reports;
 * - container: a target started as a container for the run (docs/targets.md);
 * - tool: set by the tool for its own processes (workers, children), never by a user;
 * - standard: a variable of the platform the tool honours.
 */
export type EnvGroup = 'target' | 'run' | 'container' | 'tool' | 'standard'

export interface EnvVar {
  readonly name: string
  readonly group: EnvGroup
  /** What it means, in one sentence. */
  readonly meaning: string
  /** What holds when it is unset. */
  readonly default?: string
  /** The field of the target profile it overrides (docs/targets.md). */
  readonly overrides?: string
  readonly readBy: readonly EnvReader[]
  /**
   * Changes what a conformance run checks or where it reports: a harness starting a clean run removes it (RUN_VARS).
   */
  readonly configuresRun?: true
}

const TARGET_READERS = ['run', 'list', 'validate', 'acceptance', 'explore', 'replay'] as const

export const ENV_VARS = [
  {
    name: 'TARGET_PROFILE',
    group: 'target',
    meaning: 'path of the target profile (.json or .jsonc)',
    default: 'fixtures/targets/reference.json: the embedded reference service',
    readBy: [...TARGET_READERS, 'npm run conformance:sharded'],
    configuresRun: true,
  },
  {
    name: 'TARGET_PROFILES',
    group: 'target',
    meaning:
      'several profile paths, comma-separated: one run checks every target at once, with a verdict per target ' +
      '(docs/targets.md)',
    readBy: ['run', 'list'],
    configuresRun: true,
  },
  {
    name: 'SALES_BASE_URL',
    group: 'target',
    meaning: 'base URL of the sales service; when set, no embedded reference service is started',
    overrides: 'services.salesBaseUrl',
    default: 'the embedded reference service',
    readBy: [...TARGET_READERS, 'npm run conformance:sharded'],
    configuresRun: true,
  },
  {
    name: 'AUTH_URL',
    group: 'target',
    meaning: 'base URL of the identity service; login is POST {AUTH_URL}/login/{tenant}',
    overrides: 'services.authUrl',
    default: '{SALES_BASE_URL}/api/v1/identifier',
    readBy: TARGET_READERS,
    configuresRun: true,
  },
  {
    name: 'WEBHOOK_BASE_URL',
    group: 'target',
    meaning: 'base URL of the webhook subscription service',
    overrides: 'services.webhookBaseUrl',
    default: 'SALES_BASE_URL',
    readBy: TARGET_READERS,
    configuresRun: true,
  },
  {
    name: 'TENANT',
    group: 'target',
    meaning: 'tenant tag of the primary user',
    overrides: 'tenant',
    readBy: [...TARGET_READERS, 'npm run conformance:sharded'],
    configuresRun: true,
  },
  {
    name: 'AUTH_USERNAME',
    group: 'target',
    meaning: 'username of the primary user',
    overrides: 'credentials',
    readBy: TARGET_READERS,
    configuresRun: true,
  },
  {
    name: 'AUTH_PASSWORD',
    group: 'target',
    meaning:
      "password of the primary user (never put one in the profile); the profile's passwordEnv names further variables",
    overrides: 'credentials',
    readBy: TARGET_READERS,
    configuresRun: true,
  },
  {
    name: 'PRODUCT',
    group: 'target',
    meaning: 'product (schema name) of the main scenarios',
    overrides: 'product',
    readBy: TARGET_READERS,
    configuresRun: true,
  },
  {
    name: 'REFERENCE_DEFECTS',
    group: 'target',
    meaning:
      'comma-separated defects of the embedded reference service (mutation testing; the list: ledger-conformance ' +
      'reference --list-defects)',
    default: 'none',
    readBy: ['run', 'validate', 'explore'],
    configuresRun: true,
  },
  {
    name: 'REFERENCE_CHAOS',
    group: 'target',
    meaning: 'faults of the embedded reference service, e.g. "503=0.05,latency=0-200,seed=7" (docs/reliability.md)',
    default: 'none',
    readBy: ['run', 'reference service'],
    configuresRun: true,
  },
  {
    name: 'CONFORMANCE_SEED',
    group: 'run',
    meaning: 'integer seed of generated data (and of explore)',
    default: 'a new seed, printed in the summary',
    readBy: ['run', 'validate', 'explore', 'npm run conformance:sharded'],
  },
  {
    name: 'CONFORMANCE_RUN_ID',
    group: 'run',
    meaning: 'the run id: tags the data a run creates, names its reports',
    default: 'run-<date>-<random>',
    readBy: ['run', 'validate', 'acceptance', 'npm run conformance:sharded'],
    configuresRun: true,
  },
  {
    name: 'REPORTS_DIR',
    group: 'run',
    meaning: 'where reports go',
    default: './reports of the current directory',
    readBy: ['run', 'acceptance', 'report', 'explore', 'replay', 'npm run conformance:sharded'],
    configuresRun: true,
  },
  {
    name: 'ALLOW_WRITES',
    group: 'run',
    meaning:
      '1: the commands that create and change data (run, acceptance, explore, replay) may do so on a target whose ' +
      'profile is not nonProduction (same as --allow-writes)',
    readBy: ['run', 'acceptance', 'explore', 'replay'],
    configuresRun: true,
  },
  {
    name: 'LEDGER_COMMAND_LINE',
    group: 'tool',
    meaning:
      "the user's command line, for the production guard's refusal that repeats it with a flag added (set by the CLI)",
    readBy: ['run', 'acceptance', 'explore', 'replay'],
    configuresRun: true,
  },
  {
    name: 'ALLURE_HISTORY',
    group: 'run',
    meaning: 'default of report --history: the Allure history file carried between runs',
    readBy: ['report'],
  },
  {
    name: 'CHROMIUM_PATH',
    group: 'run',
    meaning: 'the browser of report --check',
    default: '/usr/bin/chromium',
    readBy: ['report'],
  },
  {
    name: 'LEDGER_CONFORMANCE_CACHE',
    group: 'run',
    meaning: "where an installed package keeps vitest's caches",
    default: '$XDG_CACHE_HOME/ledger-conformance, else ~/.cache/ledger-conformance',
    readBy: ['run', 'list'],
  },
  {
    name: 'TARGET',
    group: 'container',
    meaning: "'container': run against the reference image started as a container; 'embedded': the embedded reference",
    readBy: ['run', 'npm run conformance:container'],
    configuresRun: true,
  },
  {
    name: 'TARGET_IMAGE',
    group: 'container',
    meaning: 'image of the service under test, started as a container for the run',
    readBy: ['run', 'npm run conformance:container'],
    configuresRun: true,
  },
  {
    name: 'REFERENCE_IMAGE',
    group: 'container',
    meaning: 'image of the reference service',
    default: 'ledger-conformance/reference:local',
    readBy: ['run', 'npm run conformance:container'],
  },
  {
    name: 'TARGET_PORT',
    group: 'container',
    meaning: 'port the service listens on inside the container',
    default: '4010',
    readBy: ['run', 'npm run conformance:container'],
  },
  {
    name: 'TARGET_HEALTH_PATH',
    group: 'container',
    meaning: 'route answering 200 when the service is ready',
    default: '/health',
    readBy: ['run', 'npm run conformance:container'],
  },
  {
    name: 'TARGET_STARTUP_TIMEOUT_MS',
    group: 'container',
    meaning: 'how long to wait for the health route',
    default: '60000',
    readBy: ['run', 'npm run conformance:container'],
  },
  {
    name: 'LEDGER_RUN_PLAN',
    group: 'tool',
    meaning:
      'set by `run` and `acceptance` for their vitest: the run plan (<reports>/run-plan.json, common/run-plan.ts) ' +
      'holding what the CLI resolved (run id, seed, folders, the target(s) with their secrets sealed, selection, ' +
      'strictness, shard), and after `#key=` the key of those secrets, which is in no file; the variables ' +
      'below marked "without a run plan" are read only when it is unset',
    readBy: ['run'],
    configuresRun: true,
  },
  {
    name: 'LEDGER_SHARD_BLOB',
    group: 'tool',
    meaning:
      'without a run plan: where a shard writes its blob report, the input of `merge` (runner/run/shard.ts; `run ' +
      '--shard i/n` puts it in the plan)',
    default: 'no blob report',
    readBy: ['run'],
  },
  {
    name: 'CONFORMANCE_LANES',
    group: 'tool',
    meaning:
      "0: one vitest file per suite instead of one lane holding them all (set by list's collection; " +
      'docs/reliability.md#speed)',
    default: 'one lane',
    readBy: ['run', 'list'],
  },
  {
    name: 'LEDGER_SELECTED_CHECKS',
    group: 'tool',
    meaning:
      'without a run plan: the check ids of a selection, for the workers (set by the collection of list; run ' +
      '--check/--section/--operation puts them in the plan)',
    readBy: ['run'],
    configuresRun: true,
  },
  {
    name: 'LEDGER_THOROUGH',
    group: 'run',
    meaning:
      '1: the slow probes run too (same as run --thorough): a token past exp + auth.maxExpiryLeewaySeconds, tried in ' +
      'the background',
    default: 'the quick run (the summary notes what was not probed)',
    readBy: ['run', 'npm run conformance:sharded'],
    configuresRun: true,
  },
  {
    name: 'LEDGER_CATALOGUE_CHECKS',
    group: 'tool',
    meaning: "without a run plan: the catalogue's size, for the reporters of a sharded run (run puts it in the plan)",
    readBy: ['run'],
    configuresRun: true,
  },
  {
    name: 'LEDGER_VITEST_FILTER',
    group: 'tool',
    meaning:
      "without a run plan: vitest's own filters given after -- (--changed, -t, files), for the reporters' " +
      '"partial" (run puts them in the plan)',
    readBy: ['run'],
    configuresRun: true,
  },
  {
    name: 'LEDGER_STRICT',
    group: 'tool',
    meaning:
      'without a run plan: 1: an untested requirement makes the run INCONCLUSIVE (set by acceptance and merge; run ' +
      '--strict puts it in the plan)',
    readBy: ['run', 'acceptance'],
    configuresRun: true,
  },
  {
    name: 'CONFORMANCE_CALLER_CWD',
    group: 'tool',
    meaning:
      'without a run plan: the folder the user ran the CLI from: report paths are printed relative to it (set by ' +
      'report and merge; run puts it in the plan)',
    readBy: ['run', 'report'],
  },
  {
    name: 'LEDGER_SELECTION',
    group: 'tool',
    meaning:
      "without a run plan: the selection's label and counts, for the reporters (set by merge; run puts them in the " +
      'plan)',
    readBy: ['run'],
    configuresRun: true,
  },
  {
    name: 'LC_ALLURE_RESULTS_DIR',
    group: 'tool',
    meaning: "the Allure results folder, for the workers' exchange attachments (set by the Allure reporter)",
    readBy: ['run'],
  },
  {
    name: 'LC_BENCH_USAGE_FILE',
    group: 'tool',
    meaning: "where the bench's usage probe writes a run's CPU and memory (set by npm run bench)",
    readBy: ['npm run bench'],
  },
  {
    name: 'VITE_CONFIG_NATIVE_IGNORE_WARNING',
    group: 'tool',
    meaning: "true: quiets vite's warning about the config loader while list collects the suites",
    readBy: ['list'],
  },
  {
    name: 'CI',
    group: 'standard',
    meaning: 'set by CI services: the report command does not open a browser',
    readBy: ['report'],
  },
  {
    name: 'XDG_CACHE_HOME',
    group: 'standard',
    meaning: 'the user cache folder (LEDGER_CONFORMANCE_CACHE)',
    default: '~/.cache',
    readBy: ['run', 'list'],
  },
  {
    name: 'NODE_OPTIONS',
    group: 'standard',
    meaning: "Node's options; the bench adds its usage probe to them",
    readBy: ['npm run bench'],
  },
  {
    name: 'FORCE_COLOR',
    group: 'standard',
    meaning:
      '1: colour in the console even when it is not a terminal; 0: no colour (the tool sets 0 for child runs whose ' +
      'output it reads)',
    default: 'colour only on a terminal',
    readBy: ['run', 'npm run bench', 'npm run conformance:sharded'],
  },
  {
    name: 'NO_COLOR',
    group: 'standard',
    meaning: 'any value: no colour in the console (the tool sets 1 for child runs whose output it reads)',
    default: 'colour only on a terminal',
    readBy: ['run', 'npm run bench', 'npm run conformance:sharded'],
  },
] as const satisfies readonly EnvVar[]

export type EnvVarName = (typeof ENV_VARS)[number]['name']

/** The names of one group (typed: a reader of the group cannot name a variable the list lacks). */
export type EnvNameOf<G extends EnvGroup> = Extract<(typeof ENV_VARS)[number], { group: G }>['name']

export function envVar(name: EnvVarName): EnvVar {
  return ENV_VARS.find((v) => v.name === name)!
}

/**
 * Variables that change what a conformance run checks or where it reports: a harness starting a clean run removes them.
 */
export const RUN_VARS: readonly string[] = ENV_VARS.filter((v) => 'configuresRun' in v && v.configuresRun).map(
  (v) => v.name,
)

/** Wraps `text` to `width` columns, later lines indented by `indent`. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines.join(`\n${' '.repeat(indent)}`)
}

/**
 * The "Environment variables:" block of a command's help: the variables that command reads, with their meaning and
 * default, from ENV_VARS (variables the tool sets for itself left out).
 */
export function envHelp(reader: EnvReader, o: { title?: string; width?: number } = {}): string {
  const vars = ENV_VARS.filter(
    (v) => (v.readBy as readonly string[]).includes(reader) && v.group !== 'tool' && v.group !== 'standard',
  )
  if (vars.length === 0) return `${o.title ?? 'Environment'}: none read.`
  const col = Math.max(...vars.map((v) => v.name.length)) + 4
  const lines = vars.map(
    (v) =>
      `  ${v.name.padEnd(col - 2)}${wrap(
        `${v.meaning}${
          'overrides' in v ? ` (overrides the profile's ${v.overrides})` : ''
        }${'default' in v ? ` (default: ${v.default})` : ''}`,
        col,
        o.width ?? 118,
      )}`,
  )
  return `${o.title ?? 'Environment'}:\n${lines.join('\n')}`
}
