// The one glob matcher for patterns a file or a setting holds (`.alls` layer patterns `{conv*}`,
// ld.so.conf's `include /etc/ld.so.conf.d/*.conf`): fnmatch's `*`, `?`, `[...]`, `[!...]` and
// ranges, matched over one name (one path component: `*` is not special about `/`, callers split).
// A glob turned into a RegExp backtracks: `*` forty times against a long name hung the doctor. This
// is the two-pointer wildcard match — on a mismatch it only moves the last `*` on by one
// character — so a match costs at most |pattern| × |name| steps, never exponential.

type Token = { kind: 'star' } | { kind: 'one' } | { kind: 'char'; c: string } | { kind: 'set'; negate: boolean; chars: string; ranges: [string, string][] };

export interface GlobMatcher {
  readonly pattern: string;
  /** Whether the whole of `name` matches. `steps`, when given, counts the comparisons (for the linear-time test). */
  test(name: string, steps?: { n: number }): boolean;
}

/** `[` … `]` at `i` (fnmatch: a `]` right after `[` or `[!` is a member); undefined when unclosed. */
function readSet(p: string[], i: number): { token: Token; next: number } | undefined {
  let j = i + 1;
  const negate = p[j] === '!';
  if (negate) j++;
  const start = j;
  let close = -1;
  for (let k = start + 1; k < p.length; k++)
    if (p[k] === ']') {
      close = k;
      break;
    }
  if (close < 0) return undefined;
  let chars = '';
  const ranges: [string, string][] = [];
  for (let k = start; k < close; k++) {
    if (p[k + 1] === '-' && k + 2 < close) {
      ranges.push([p[k], p[k + 2]]);
      k += 2;
    } else chars += p[k];
  }
  return { token: { kind: 'set', negate, chars, ranges }, next: close + 1 };
}

function tokenize(pattern: string): Token[] {
  const p = Array.from(pattern); // by code point: `?` is one character, not half of one
  const out: Token[] = [];
  for (let i = 0; i < p.length;) {
    const c = p[i];
    if (c === '*') {
      if (out[out.length - 1]?.kind !== 'star') out.push({ kind: 'star' }); // `**` is `*`
      i++;
    } else if (c === '?') {
      out.push({ kind: 'one' });
      i++;
    } else if (c === '[') {
      const set = readSet(p, i);
      if (set) {
        out.push(set.token);
        i = set.next;
      } else {
        out.push({ kind: 'char', c });
        i++;
      }
    } else {
      out.push({ kind: 'char', c });
      i++;
    }
  }
  return out;
}

function matchesOne(t: Token, c: string): boolean {
  switch (t.kind) {
    case 'one':
      return true;
    case 'char':
      return t.c === c;
    case 'set': {
      const inSet = t.chars.includes(c) || t.ranges.some(([a, b]) => a <= c && c <= b);
      return inSet !== t.negate;
    }
    default:
      return false;
  }
}

function run(tokens: readonly Token[], name: string, steps?: { n: number }): boolean {
  const s = Array.from(name);
  let ti = 0;
  let si = 0;
  let starT = -1; // the last `*` seen, and where in the name it is tried up to
  let starS = 0;
  while (si < s.length) {
    if (steps) steps.n++;
    const t = tokens[ti];
    if (t && t.kind === 'star') {
      starT = ti++;
      starS = si;
    } else if (t && matchesOne(t, s[si])) {
      ti++;
      si++;
    } else if (starT >= 0) {
      // the tokens after the last `*` failed here: let that `*` take one more character
      ti = starT + 1;
      si = ++starS;
    } else return false;
  }
  while (tokens[ti]?.kind === 'star') ti++;
  return ti === tokens.length;
}

const cache = new Map<string, GlobMatcher>();

/** The matcher of `pattern` (cached: a script re-checks its patterns on every edit). */
export function globMatcher(pattern: string): GlobMatcher {
  let m = cache.get(pattern);
  if (m) return m;
  const tokens = tokenize(pattern);
  m = { pattern, test: (name, steps) => run(tokens, name, steps) };
  if (cache.size > 2000) cache.clear();
  cache.set(pattern, m);
  return m;
}
