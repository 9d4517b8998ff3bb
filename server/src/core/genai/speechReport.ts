// A transcription as Markdown (what Hailo: Transcribe Audio opens) and its one-line summary (what
// the CLI prints on stderr). Every file-derived string — names, the model's text — is escaped with
// mdInline, so nothing in a recording's transcript renders as Markdown or HTML. Pure.
import type { TranscribeResult } from '../device/protocol';
import { mdInline } from './transcript';

/** "01:02.500": minutes and seconds with milliseconds, Whisper's console form. */
export function clock(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const m = Math.floor(ms / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`;
}

/** "[00:01.250 → 00:02.000]  text" per segment. */
export function segmentLines(r: Pick<TranscribeResult, 'segments'>): string {
  return r.segments.map((s) => `[${clock(s.start)} → ${clock(s.end)}]  ${s.text.trim()}\n`).join('');
}

export function transcribeSummary(r: TranscribeResult): string {
  const src = r.source;
  const rtf = src.seconds > 0 ? ` (${(r.ms / 1000 / src.seconds).toFixed(2)}× real time)` : '';
  return [
    `${r.segments.length} segment${r.segments.length === 1 ? '' : 's'} from ${src.seconds.toFixed(1)} s of ${src.encoding} audio at ${src.sampleRate} Hz, ${src.channels} channel${src.channels === 1 ? '' : 's'}`,
    `transcribed in ${(r.ms / 1000).toFixed(2)} s${rtf}`,
    `model opened in ${(r.openMs / 1000).toFixed(2)} s`,
    `HailoRT ${r.runtime.hailortVersion}${r.runtime.fake ? ' (the fake libhailort)' : ''}`,
  ].join(', ');
}

export function transcribeMarkdown(r: TranscribeResult, names: { audio: string; hef: string }): string {
  const what = r.task === 'translate' ? 'Translation' : 'Transcript';
  const lines = [
    `# ${what} of ${mdInline(names.audio)}`,
    '',
    `${mdInline(names.hef)}${r.language ? `, language ${mdInline(r.language)}` : ', language detected by the model'} — ${mdInline(transcribeSummary(r))}.`,
    '',
    r.text.trim() ? mdInline(r.text.trim()) : '_(no speech was found)_',
    '',
  ];
  if (r.segments.length) {
    lines.push('| start | end | text |', '| --- | --- | --- |');
    for (const s of r.segments) lines.push(`| ${clock(s.start)} | ${clock(s.end)} | ${mdInline(s.text.trim())} |`);
    lines.push('');
  }
  return lines.join('\n');
}
