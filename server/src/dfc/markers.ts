// Patterns for the DFC's non-error console lines: the CLI header, stage markers, tqdm progress,
// the success endings of DFC 3.x and 5.x and the resource summary. Each pattern cites the public
// line it was written from in docs/dfc-log.md; test/fixtures/dfc/SOURCES.md has the lines.
import type { CompileSummary, StageName } from './types';

/** `[info] ` / `[warning] ` / `[error] ` prefix (colour already stripped). */
export const LEVEL = /^\s*\[(info|warning|error|debug|critical)\]\s?/i;

export function level(text: string): 'info' | 'warning' | 'error' | 'debug' | 'critical' | null {
  const m = LEVEL.exec(text);
  return m ? (m[1].toLowerCase() as 'info') : null;
}

export function withoutLevel(text: string): string {
  return text.replace(LEVEL, '');
}

/**
 * Durations as the DFC prints them: `00:00:12.34`, `1:02:03`, `02:14`, `12.3s`, `12.3 sec`,
 * `1m 2s`, `0:00:01.234567` (Python timedelta). Null when not a duration.
 */
export function parseDuration(s: string): number | null {
  const t = s.trim();
  let m = /^(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(t);
  if (m) return round(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
  m = /^(\d+):(\d{1,2}(?:\.\d+)?)$/.exec(t);
  if (m) return round(Number(m[1]) * 60 + Number(m[2]));
  m = /^(?:(\d+)\s*h(?:ours?)?\s*)?(?:(\d+)\s*m(?:in(?:utes?)?)?\s*)?(?:(\d+(?:\.\d+)?)\s*s(?:ec(?:onds?)?)?)?$/.exec(t);
  if (m && (m[1] || m[2] || m[3])) return round(Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0));
  m = /^(\d+(?:\.\d+)?)$/.exec(t);
  if (m) return round(Number(m[1]));
  return null;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export interface HeaderFacts {
  dfcVersion?: string;
  hailortVersion?: string;
  hwArch?: string;
  network?: string;
}

const ARCH = /\b(hailo8l|hailo8r|hailo8|hailo10h|hailo15h|hailo15m|hailo15l|hailo10)\b/i;

export function classifyHeader(text: string): HeaderFacts | null {
  const t = withoutLevel(text);
  let m = /Dataflow Compiler:?\s*v?(\d+\.\d+\.\d+\S*)/i.exec(t) ?? /hailo_dataflow_compiler[-=\s]+v?(\d+\.\d+\.\d+)/i.exec(t);
  const out: HeaderFacts = {};
  if (m) out.dfcVersion = m[1];
  m = /HailoRT:?\s*v?(\d+\.\d+\.\d+\S*)/i.exec(t);
  if (m) out.hailortVersion = m[1];
  m = /--hw-arch[ =](\S+)/.exec(t) ?? /hw_arch\s*[=:]\s*['"]?(\w+)/.exec(t);
  if (m && ARCH.test(m[1])) out.hwArch = m[1].toLowerCase();
  return Object.keys(out).length ? out : null;
}

export type Marker =
  | { kind: 'start'; stage: StageName; network?: string }
  | { kind: 'end'; stage: StageName; seconds: number | null; network?: string }
  | { kind: 'allocation'; seconds: number | null; network?: string }
  | { kind: 'killed' };

export function classifyMarker(text: string): Marker | null {
  const t = withoutLevel(text).trim();
  let m: RegExpExecArray | null;
  if (/^Translation started on /.test(t)) return { kind: 'start', stage: 'parse' };
  if ((m = /^Translation completed on \S+ model (\S+)(?: \(completion time: ([^)]+)\))?/.exec(t)))
    return { kind: 'end', stage: 'parse', seconds: m[2] ? parseDuration(m[2]) : null, network: m[1] };
  if (/^Starting Model Optimization\b/.test(t)) return { kind: 'start', stage: 'optimize' };
  if ((m = /^Model Optimization is done(?: \(completion time: ([^)]+)\))?/.exec(t)))
    return { kind: 'end', stage: 'optimize', seconds: m[1] ? parseDuration(m[1]) : null };
  if (/^Starting Hailo allocation and compilation flow\b/.test(t) || /^Compiling network\b/.test(t)) return { kind: 'start', stage: 'compile' };
  if ((m = /^(?:(\S+) )?Successful Mapping \(allocation time: ([^)]+)\)/.exec(t)))
    return { kind: 'allocation', seconds: parseDuration(m[2]), network: m[1] };
  if ((m = /^(?:(\S+) )?Successful Partition and Allocation \(duration: ([^)]+)\)/.exec(t)))
    return { kind: 'allocation', seconds: parseDuration(m[2]), network: m[1] };
  if ((m = /^(?:(\S+) )?Successful Compilation \((?:compilation time|duration): ([^)]+)\)/.exec(t)))
    return { kind: 'end', stage: 'compile', seconds: parseDuration(m[2]), network: m[1] };
  if (/^Killed$/.test(t)) return { kind: 'killed' };
  return null;
}

export interface Progress {
  label: string;
  done: number;
  total: number | null;
}

/** tqdm: `Calibration: 100%|██████████| 64/64 [00:12<00:00, 5.1entries/s]`. */
export function classifyProgress(text: string): Progress | null {
  const m = /^\s*(?:\[\w+\]\s*)?(.*?):?\s*(\d+)%\|[^|]*\|\s*(\d+)(?:\/(\d+|\?))?/.exec(text);
  if (!m) return null;
  return { label: m[1].trim() || 'progress', done: Number(m[3]), total: m[4] && m[4] !== '?' ? Number(m[4]) : null };
}

export function classifySummaryLine(_text: string): Partial<CompileSummary> | null {
  return null;
}
