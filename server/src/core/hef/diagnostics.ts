// HEF findings as editor-neutral diagnostics (the Problems panel): integrity and container
// problems, HailoRT compatibility problems, and failed mtmd contract rules. A HEF is binary, so
// every diagnostic sits at the start of the file; the byte offset goes into the message.
import type { Diagnostic, Severity } from '../common/types';
import type { HefReport } from './model';
import type { MtmdResult } from './mtmd';
import { n } from './problems';

const AT_START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export function hefDiagnostics(report: HefReport, mtmd?: MtmdResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of report.problems) {
    if (p.severity === 'info') continue;
    const where = p.offset !== undefined ? ` (byte ${n(p.offset)})` : '';
    out.push({ range: AT_START, severity: p.severity as Severity, code: p.code, message: `${p.message}${where}` });
  }
  if (mtmd) {
    for (const r of mtmd.rules) {
      if (r.pass !== false) continue;
      const llama = r.llamaError ? ` — llama.cpp: ${r.llamaError}` : '';
      out.push({
        range: AT_START,
        severity: 'error',
        code: `mtmd/${r.id}`,
        message: `mtmd contract: ${r.title}: ${r.detail}${llama}${r.confidence === 'inferred' ? ' [inferred from the loader, not a named check]' : ''}`,
      });
    }
  }
  return out;
}
