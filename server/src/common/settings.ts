// Settings the analysis cores read. The LSP layer fills them from `workspace/configuration`
// (section `hailo`), the CLI from its flags. Keep defaults here, in one place.

export type HwArch = 'hailo8' | 'hailo8r' | 'hailo8l' | 'hailo10h' | 'hailo15h' | 'hailo15m' | 'hailo15l' | string;

export interface HailoSettings {
  /** Target architecture for arch-specific rules (`hailo.hwArch`). */
  hwArch: HwArch;
}

export const DEFAULT_SETTINGS: HailoSettings = {
  hwArch: 'hailo10h',
};

/** Merge a partial (possibly untrusted, user-supplied) settings object over the defaults. */
export function resolveSettings(raw: unknown): HailoSettings {
  const s: HailoSettings = { ...DEFAULT_SETTINGS };
  if (raw && typeof raw === 'object') {
    const r = raw as Record<string, unknown>;
    if (typeof r.hwArch === 'string' && r.hwArch.trim() !== '') s.hwArch = r.hwArch.trim().toLowerCase();
  }
  return s;
}
