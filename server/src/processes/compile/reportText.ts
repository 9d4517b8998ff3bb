// A compile's report for humans — `hailo-tools compile`'s text and the extension's output channel, the same lines:
// the DFC log's report (core/dfc/text.ts), then the files side by side — what the compile copied out to the host and
// what the run's own log says it saved, as printed inside the container — the HEF check, the container, the notes.
// Every path and name is escaped (a log and a folder are untrusted: no control sequence, no forged line).
import { reportLines } from '../../core/common/escape';
import { escapeTerminal, reportText, SAVED_LABEL } from '../../core/dfc';
import type { CompileReport } from './session';

export function compileReportText(r: CompileReport, logLabel: string): string {
  return reportText(r, logLabel, { saved: false }) + compileFilesText(r);
}

function compileFilesText(r: CompileReport): string {
  const e = escapeTerminal;
  const lines = [''];
  const o = r.outputs;
  lines.push(
    `outputs: har ${o.har ? e(o.har) : '-'}`,
    `         optimized har ${o.optimizedHar ? e(o.optimizedHar) : '-'}`,
    `         hef ${o.hef ? e(o.hef) : '-'}`,
  );
  // The run's own words, in the container's paths (the staging folder's `.partial.` names): not checked here.
  if (!r.saved.length) lines.push('saved:   - (the log names no file the run saved)');
  r.saved.forEach((f, i) => lines.push(`${i === 0 ? 'saved:  ' : '        '} ${SAVED_LABEL[f.kind]} ${e(f.path)} (in the container; log line ${f.logLine})`));
  if (r.hef) {
    const config = { embedded: 'embedded', missing: 'MISSING', different: 'DIFFERS from the file', 'not-requested': 'not requested' }[r.hef.hailoConfig];
    const contract = r.hef.contract ? (r.hef.contract.pass ? 'mtmd contract passes' : `mtmd contract FAILS (${r.hef.contract.failed.length} rule(s))`) : '';
    lines.push(`hef: ${r.hef.bytes} bytes, ${r.hef.intact ? 'intact' : 'DAMAGED'}, hailo-config.json ${config}${contract ? `, ${contract}` : ''}`);
  }
  if (r.container)
    lines.push(
      `container: ${e(r.container.name)} (image ${e(r.container.image)}${r.container.context ? `, context ${e(r.container.context)}` : ''}, ${r.container.transfer === 'copy' ? 'docker cp' : 'bind mounts'}${r.container.gpus ? ', GPUs' : ''}) ${r.container.removed ? 'removed' : 'NOT removed'}`,
    );
  for (const n of r.notes) lines.push(`note: ${e(n)}`);
  return reportLines(lines);
}
