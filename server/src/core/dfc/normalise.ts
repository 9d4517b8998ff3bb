// One normalisation step for every line, before anything reads it (issue 30): users paste DFC
// output from notebooks, wrappers, UIs and their own loggers, which add or rename prefixes. Each
// prefix below is stripped wherever it stands at the start of a line, in any order and nesting,
// and the logger's level becomes the DFC's own `[level] ` tag, so the markers, the error
// collector and the catalogue (core/common/dfcMessages.ts) see one form. ANSI colours are already
// gone (lines.ts). A line with no foreign prefix is returned unchanged — the DFC's own output
// keeps its exact text and indentation (tracebacks read it).

type Level = 'info' | 'warning' | 'error' | 'debug' | 'critical';

const LEVEL_WORDS: Record<string, Level> = {
  info: 'info',
  warning: 'warning',
  warn: 'warning',
  error: 'error',
  err: 'error',
  debug: 'debug',
  critical: 'critical',
  fatal: 'critical',
};

/** A prefix at the start of a line; `level` when it carries the logger's level. */
interface Prefix {
  re: RegExp;
  /** Index of the group holding the level word, if any. */
  level?: number;
}

const PREFIXES: Prefix[] = [
  // Notebook and terminal capture marks: `Out[3]:`, `In [4]:`, `[stderr]`, `stderr:`.
  { re: /^(?:Out|In) ?\[\d*\]:\s*/ },
  { re: /^\[(?:stdout|stderr)\]\s*/i },
  { re: /^(?:stdout|stderr):\s+/ },
  // Timestamps: `2025-01-02 10:11:12,345`, ISO with `T`/zone, bracketed, or a bare time of day.
  { re: /^\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s*(?:[-|:]\s+)?/ },
  { re: /^\[?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\]?\s+(?:[-|]\s+)?(?=\S)/ },
  // HailoRT's own prefix: `[12345] [HailoRT] [error] [vdevice.cpp:229] [create] …`.
  { re: /^\[\d+\]\s+(?=\[)/ },
  { re: /^\[HailoRT\]\s*/i },
  // spdlog's `[%n] [%l] %v`: a logger's name before its level (`[HailoRT CLI] [error] …`, hailortcli.cpp).
  { re: /^\[[A-Za-z][\w .-]{0,40}\]\s+(?=\[(?:info|warning|warn|error|debug|critical|fatal|trace)\])/i },
  { re: /^\[[\w.-]+\.(?:cpp|hpp|cc|c|h|py):\d+\]\s*(?:\[\w+\]\s*)?/ },
  // Levels: `[ERROR]`, `ERROR:`, `ERROR - `, `ERROR | `, `<Hailo Model Zoo ERROR>`, `E: `.
  { re: /^\[(INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL|info|warning|warn|error|debug|critical|fatal|Info|Warning|Error)\]\s*/, level: 1 },
  { re: /^(INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)(?::(?:[\w.]+:)?|\s+[-|]\s+|\s+(?=\S))\s*/, level: 1 },
  { re: /^<[^<>]*?\b(INFO|WARNING|ERROR|DEBUG|CRITICAL)>\s*/, level: 1 },
  // Logger names: `hailo_sdk_client.runner.client_runner - `, `common.core | ` (hailo-apps).
  { re: /^(?:[a-z_][a-z0-9_]*\.)+[a-z_][a-z0-9_]*\s+[-|:]\s+/ },
  // Authors' decoration of pasted output: comment marks, quotes, list bullets.
  { re: /^(?:#+|\/\/)\s*(?=\S)/ },
  { re: /^>\s+/ },
  { re: /^[-*+]\s+(?=[^-*+\s])/ },
];

const CANONICAL_LEVEL = /^\[(info|warning|error|debug|critical)\] /;
/** Any prefix at all (one test before the loop: most lines have none). */
const ANY_PREFIX = new RegExp(`^(?:${PREFIXES.map((p) => `(?:${p.re.source.replace(/^\^/, '')})`).join('|')})`);

/** The line as the readers expect it: foreign prefixes gone, the level as the DFC writes it. */
export function normaliseLine(text: string): string {
  let t = text.trimStart();
  let level: Level | null = null;
  let changed = false;
  /** The line starts with the DFC's own `[level] ` tag (its own output). */
  const dfcOwn = CANONICAL_LEVEL.test(t);
  const decorated = t.includes('**') || t.includes('`');
  if (!decorated && (dfcOwn ? !ANY_PREFIX.test(t.slice(t.indexOf(']') + 2)) : !ANY_PREFIX.test(t))) return text;
  for (let round = 0; round < 12; round++) {
    let hit = false;
    for (const p of PREFIXES) {
      const m = p.re.exec(t);
      if (!m || m[0].length === 0) continue;
      if (p.level !== undefined) {
        const lv = LEVEL_WORDS[m[p.level].toLowerCase()];
        // The DFC's own `[info] ` at the start of an otherwise clean line is not foreign.
        if (round === 0 && !changed && CANONICAL_LEVEL.test(t) && m[0] === `[${m[p.level]}] `) {
          level = lv;
          t = t.slice(m[0].length);
          hit = true;
          break;
        }
        level ??= lv;
      }
      t = t.slice(m[0].length);
      changed = true;
      hit = true;
      break;
    }
    if (!hit) break;
  }
  const prefixGone = changed;
  // Markdown around pasted output: bold and inline code spans, in pairs only (`**kwargs` in a
  // traceback's code line has one; the compiler's `Assertion `x' failed` one backtick). The DFC's
  // own `[info] Running `hailo …`` keeps its backticks (the command reader reads them). Table
  // pipes stay: the DFC's utilisation tables are pipe tables, and messages are found anywhere.
  let marked = t;
  if (!decorated && !changed) return text;
  if (/\*\*[^*\s][^*]*?\*\*/.test(marked)) marked = marked.replace(/\*\*([^*\s][^*]*?)\*\*/g, '$1');
  const ticks = marked.split('`').length - 1;
  if (ticks >= 2 && ticks % 2 === 0 && !(dfcOwn && !changed)) marked = marked.replace(/`([^`]*)`/g, '$1');
  if (marked !== t) {
    // Only decoration went: the line keeps its indentation.
    t = changed ? marked : text.slice(0, text.length - text.trimStart().length) + marked;
    if (!changed && level) t = t.replace(/^(\s*)/, `$1[${level}] `);
    changed = true;
    if (!prefixGone) return t;
  }
  if (!changed) return text;
  return level ? `[${level}] ${t}` : t;
}
