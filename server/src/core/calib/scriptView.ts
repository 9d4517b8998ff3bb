// The calibration set as the .alls editor shows it: diagnostics where the set and the script
// disagree (on `calibset_size`, the `normalization` statement, the fine-tuning / optimization
// statement) and the hover section on those statements. Pure: takes the analysed script and the
// measured set.
import type { AllsDocument } from '../alls/analysis';
import type { Diagnostic, Severity } from '../common/types';
import type { CalibArray } from './inspect';
import { reportOf } from './inspect';
import { calibMarkdown } from './render';
import { normalizationFor, type CalibAnchor } from './findings';
import { scriptFacts, type ScriptFacts } from './scriptFacts';

export interface CalibSource {
  /** Relative to the script's folder. */
  name: string;
  array?: CalibArray;
  error?: string;
}

function anchorSpan(facts: ScriptFacts, anchor: CalibAnchor, inputName: string | undefined): { start: number; end: number } | undefined {
  switch (anchor) {
    case 'calibsetSize':
      return facts.calibsetSize ?? facts.calibrationStatement;
    case 'calibration':
      return facts.calibrationStatement;
    case 'normalization':
      return normalizationFor(facts, inputName) ?? facts.normalizations[0];
    case 'optimization':
      return facts.optimizationLevel;
    case 'finetune':
      return facts.finetuneEnabled;
  }
}

const SEVERITY: Record<string, Severity> = { error: 'error', warning: 'warning', info: 'info' };

export function calibDiagnostics(doc: AllsDocument, src: CalibSource): Diagnostic[] {
  const facts = scriptFacts(doc);
  if (src.error) {
    const at = facts.calibrationStatement ?? facts.normalizations[0];
    if (!at) return [];
    return [
      {
        range: doc.lines.range(at.start, at.end),
        severity: 'warning',
        code: 'calib/unreadable',
        message: `The calibration set beside this script, ${src.name}, cannot be read: ${src.error}.`,
      },
    ];
  }
  if (!src.array) return [];
  const report = reportOf(src.array, facts);
  const out: Diagnostic[] = [];
  for (const f of report.findings) {
    if (!f.anchor) continue;
    const span = anchorSpan(facts, f.anchor, src.array.layout.input?.name);
    if (!span) continue;
    out.push({
      range: doc.lines.range(span.start, span.end),
      severity: SEVERITY[f.severity],
      code: f.code,
      message: `Calibration set ${src.name}: ${f.message}`,
    });
  }
  return out;
}

/** The hover section when `offset` is on `calibset_size`, a calibration or a normalization statement. */
export function calibHover(doc: AllsDocument, offset: number, src: CalibSource): string | undefined {
  const facts = scriptFacts(doc);
  const inside = (s?: { start: number; end: number }) => !!s && offset >= s.start && offset <= s.end;
  const on = inside(facts.calibsetSize) || inside(facts.calibrationStatement) || facts.normalizations.some((n) => inside(n));
  if (!on) return undefined;
  if (src.error) return `**Calibration set** \`${src.name.replace(/`/g, "'")}\` cannot be read: ${src.error}`;
  if (!src.array) return undefined;
  return calibMarkdown(reportOf(src.array, facts), src.name);
}
