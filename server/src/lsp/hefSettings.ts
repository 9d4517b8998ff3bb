// The HEF service's settings, read from the `hailo` section: `hailo.hef.inlineChecks`
// (off | auto | always) and `hailo.mtmd.textModelWidth` (optional integer).
export type InlineChecks = 'off' | 'auto' | 'always';

export interface HefSettings {
  inlineChecks: InlineChecks;
  textModelWidth?: number;
}

export const DEFAULT_HEF_SETTINGS: HefSettings = { inlineChecks: 'auto' };

function get(obj: unknown, path: string[]): unknown {
  let cur = obj;
  for (const k of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    const o = cur as Record<string, unknown>;
    // VS Code answers nested objects; some clients send flat dotted keys.
    cur = k in o ? o[k] : undefined;
  }
  return cur;
}

/** Merges a raw (untrusted) `hailo` section over the defaults. */
export function resolveHefSettings(raw: unknown): HefSettings {
  const s: HefSettings = { ...DEFAULT_HEF_SETTINGS };
  const mode = get(raw, ['hef', 'inlineChecks']) ?? get(raw, ['hef.inlineChecks']);
  if (mode === 'off' || mode === 'auto' || mode === 'always') s.inlineChecks = mode;
  const width = get(raw, ['mtmd', 'textModelWidth']) ?? get(raw, ['mtmd.textModelWidth']);
  if (typeof width === 'number' && Number.isInteger(width) && width > 0) s.textModelWidth = width;
  return s;
}
