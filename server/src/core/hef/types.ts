// Types the HEF modules share: what HailoRT's releases answer about a HEF (verdict.ts decides it,
// model.ts carries it in the report, read.ts and describe.ts use it) — here, not in verdict.ts,
// so no module imports its own importer (ARCHITECTURE.md "No import cycles").

export type RuntimeLineId = '4.18-4.19' | '4.20' | '4.21-4.23' | '5.0' | '5.1-5.2';

/** `Hef::create(path)` (file) or `Hef::create(MemoryView)` (buffer: llama.cpp's mtmd loader). */
export type OpenMode = 'file' | 'buffer';

export interface RuntimeVerdict {
  line: RuntimeLineId;
  label: string;
  /** The release this verdict is of (a line's: its newest). */
  version: string;
  mode: OpenMode;
  outcome: 'loads' | 'refuses' | 'crashes';
  /** For `refuses`: the hailo_status number and name. */
  status?: number;
  statusName?: string;
  /** One sentence: why (HailoRT's own words first where it has them). */
  reason: string;
  /** Damage this release lets through, each with its consequence. */
  tolerated: string[];
  /** Among the tolerated damage: config words (CCWs) cut or changed — the device fails or computes garbage. */
  damagesConfig?: boolean;
  /** The release does not read this header (container) version at all. */
  unreadableVersion?: boolean;
  /** For a release past the rules read from source: which rules judged it (judgeRelease's sentence). */
  judgedBy?: string;
  /** Older releases of the line that answer otherwise (a line's verdict only). */
  others?: { version: string; outcome: RuntimeVerdict['outcome']; status?: number; statusName?: string; reason: string }[];
}
