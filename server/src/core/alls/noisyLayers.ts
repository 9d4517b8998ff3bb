// The script side of a layer noise analysis: when the HAR a script is checked against has noise
// figures (`<net>.noise.json`, see server/src/core/har/noise.ts), the layers the analysis says need more
// bits and that the script does not already give 16 bits get one information diagnostic on the
// first line, with a quick fix that appends
//     quantization_param([conv3, deconv1], precision_mode=a16_w16)
// (the model zoo's list form). The fix is checked first: the edited script goes through the `.alls`
// checker for the same architecture, and a line that would add an error is not offered — the
// diagnostic says why instead. Information, never a warning: a measurement, not a DFC refusal.
import type { Diagnostic, Fix } from '../common/types';
import type { ModelNoise } from '../common/modelLayers';
import type { AllsDocument } from './analysis';
import { globMatcher, type GlobMatcher } from '../common/glob';

export const NOISY_LAYERS_CODE = 'alls/noisy-layers';

/** Layer names (and `{pattern}`s) a statement's first positional names. */
function targetsOf(doc: AllsDocument, start: number, end: number): { names: Set<string>; patterns: GlobMatcher[] } {
  const text = doc.text.slice(start, end);
  const names = new Set<string>();
  const patterns: GlobMatcher[] = [];
  for (const m of text.matchAll(/\{([^{}]*)\}|([A-Za-z_][\w/.-]*)/g)) {
    if (m[1] !== undefined) patterns.push(globMatcher(m[1].slice(m[1].lastIndexOf('/') + 1)));
    else names.add(m[2].slice(m[2].lastIndexOf('/') + 1));
  }
  return { names, patterns };
}

/** Layers the script already gives 16-bit activations (`quantization_param(..., precision_mode=a16_…)`). */
export function sixteenBitLayers(doc: AllsDocument): (name: string) => boolean {
  const sets: { names: Set<string>; patterns: GlobMatcher[] }[] = [];
  for (const st of doc.statements) {
    if (st.spec?.name !== 'quantization_param' || st.isMethod) continue;
    const mode = st.keywords.find((k) => k.keyword?.text === 'precision_mode');
    const modeText = mode?.value ? doc.text.slice(mode.value.start, mode.value.end) : '';
    if (!/^a16_/.test(modeText)) continue;
    const first = st.positionals[0];
    if (first) sets.push(targetsOf(doc, first.start, first.end));
  }
  return (name) => sets.some((s) => s.names.has(name) || s.patterns.some((p) => p.test(name)));
}

export function noisyLayerDiagnostics(
  doc: AllsDocument,
  noise: ModelNoise,
  existing: readonly Diagnostic[],
  checkEdited: (text: string) => Diagnostic[],
): Diagnostic[] {
  if (doc.binary || doc.skipped) return [];
  const already = sixteenBitLayers(doc);
  const need = noise.chosen.filter((l) => !already(l.name));
  if (!need.length) return [];
  const names = need.map((l) => l.name);
  const line = `quantization_param([${names.join(', ')}], precision_mode=a16_w16)`;
  const text = doc.text;
  const endsWithNewline = text.length === 0 || text.endsWith('\n');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const insert = `${endsWithNewline ? '' : eol}${line}${eol}`;
  const endPos = doc.lines.positionAt(text.length);
  const edited = text + insert;
  const before = new Set(existing.filter((d) => d.severity === 'error').map((d) => `${d.code}:${d.message}`));
  const added = checkEdited(edited).filter((d) => d.severity === 'error' && !before.has(`${d.code}:${d.message}`));
  const figures = need
    .slice(0, 8)
    .map((l) => `${l.name} ${l.snrDb.toFixed(2)} dB`)
    .join(', ');
  const more = need.length > 8 ? ` and ${need.length - 8} more` : '';
  const first = doc.lines.positionAt(0);
  const firstLineEnd = doc.lines.positionAt(Math.max(0, text.search(/\r?\n|$/)));
  const base: Diagnostic = {
    range: { start: first, end: firstLineEnd },
    severity: 'info',
    code: NOISY_LAYERS_CODE,
    message: `Layer noise analysis: ${figures}${more} need more bits (SNR ≤ ${noise.thresholdDb} dB, or a low outlier) — ${noise.calibration}; from ${noise.source}.`,
  };
  if (added.length) {
    return [{ ...base, message: `${base.message} The 16-bit line is not offered: the checker rejects it here (${added[0].code}: ${added[0].message})` }];
  }
  const fix: Fix = {
    title: `Give ${names.length === 1 ? names[0] : `${names.length} noisy layers`} 16 bits: ${line}`,
    edits: [{ range: { start: endPos, end: endPos }, newText: insert }],
    preferred: true,
  };
  return [{ ...base, fixes: [fix] }];
}

/**
 * The edit that appends the 16-bit line for `names` to a script's text (the HAR view's "Write
 * 16-bit Line"), checked like the quick fix: `check` is the `.alls` checker for the script's
 * architecture; an error the line would add is returned instead of the edit.
 */
export function sixteenBitEdit(
  text: string,
  names: readonly string[],
  check: (text: string) => Diagnostic[],
): { offset: number; insert: string; line: string } | { error: string } {
  const line = `quantization_param([${names.join(', ')}], precision_mode=a16_w16)`;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const insert = `${text.length === 0 || text.endsWith('\n') ? '' : eol}${line}${eol}`;
  const before = new Set(
    check(text)
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.code}:${d.message}`),
  );
  const added = check(text + insert).filter((d) => d.severity === 'error' && !before.has(`${d.code}:${d.message}`));
  if (added.length) return { error: `the .alls checker rejects the line there (${added[0].code}: ${added[0].message})` };
  return { offset: text.length, insert, line };
}
