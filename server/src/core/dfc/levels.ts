// What a logger's level word means, for both places that read one: normalise.ts (the level group of a
// known prefix) and logShape.ts (the level field of a log's own line template). Each place's pattern
// decides which words it can see; this one table and rule say what each word is, so a word learned
// for one is read the same by the other.

export type LogLevel = 'info' | 'warning' | 'error' | 'debug' | 'critical';

const WORDS: Record<string, LogLevel> = {
  info: 'info',
  information: 'info',
  notice: 'info',
  // The DFC's own level between INFO and WARNING: its log files (hailo_sdk.client.log) write the stage
  // markers the console prints as `[info] ` as `IMPORTANT` (dfc-corpus unseen7/01, 06).
  important: 'info',
  warning: 'warning',
  warn: 'warning',
  error: 'error',
  err: 'error',
  debug: 'debug',
  verbose: 'debug',
  trace: 'debug',
  // GStreamer's debug levels below WARN.
  fixme: 'debug',
  log: 'debug',
  memdump: 'debug',
  critical: 'critical',
  crit: 'critical',
  fatal: 'critical',
  // One-letter levels (glog's and absl's `W`, a template's `I`/`E`/`D` column).
  i: 'info',
  w: 'warning',
  e: 'error',
  d: 'debug',
  t: 'debug',
  v: 'debug',
  f: 'critical',
  c: 'critical',
};

/** A warning level a logger qualifies (Python logging's custom level names: the DFC's `DEPRECATION_WARNING`, dfc-corpus unseen14/10). */
const QUALIFIED_WARNING = /^[a-z]+_warn(?:ing)?$/;

/** The level a logger's level word stands for; a Python warning's category (`UserWarning`, any `…Warning`) is a warning. */
export function levelOfWord(word: string): LogLevel | null {
  const lower = word.toLowerCase();
  const known = WORDS[lower];
  if (known) return known;
  if (QUALIFIED_WARNING.test(lower) || word.endsWith('Warning')) return 'warning';
  return null;
}
