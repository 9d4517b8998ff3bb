// Layer patterns `{conv*}`, `{conv_feature_splitter[0-9]*_[2-3]}`: fnmatch-style (`*`, `[...]`,
// `[!...]`); `?` as one character is a GUESS (reference §1.1).

const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  let src = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') src += '.*';
    else if (c === '?') src += '.';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) {
        src += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      src += '[' + (negate ? '^' : '') + body.replace(/[\\\]^]/g, (m) => '\\' + m) + ']';
      i = close;
    } else src += c.replace(/[.*+?^${}()|[\]\\/]/g, (m) => '\\' + m);
  }
  src += '$';
  try {
    re = new RegExp(src);
  } catch {
    re = /$^/; // a pattern we cannot read matches nothing
  }
  if (cache.size > 2000) cache.clear();
  cache.set(pattern, re);
  return re;
}
