// Before native code opens a HEF: what the installed HailoRT would do with it, from our reading of
// the file (server/src/core/hef/verdict.ts): rule 1 of the pre-run gate (runGate.ts). A file that
// would crash libhailort (boundary edge layers without buffer_indices) never reaches it, so the
// worker is not lost to a SIGSEGV; a file it would refuse is refused with that status, worded as
// read before HailoRT. Pure.
import { lineOfVersion, targetLine, verdictAt, verdictFor, type HefReport, type RuntimeVerdict } from '../hef';
import { errorFromKind } from './errors';
import type { DeviceError } from './protocol';

/** The verdict of the HailoRT `version` (X.Y.Z: that release's own rules; the file's target line when unknown or older than 4.18). */
export function verdictForRuntime(report: HefReport, version: string | undefined): RuntimeVerdict {
  if (version && /^\d+\.\d+\.\d+/.test(version) && lineOfVersion(version)) return verdictAt(report, version, 'file');
  return verdictFor(report, targetLine(report), 'file');
}

/**
 * undefined when that HailoRT loads the file (or, with `crashOnly`, merely refuses it); else the
 * error to report instead of opening it.
 */
export function hefRefusal(report: HefReport, version: string | undefined, title: string, crashOnly = false): DeviceError | undefined {
  const v = verdictForRuntime(report, version);
  if (v.outcome === 'loads' || (crashOnly && v.outcome !== 'crashes')) return undefined;
  if (v.outcome === 'crashes') {
    const err = errorFromKind('hef-unreadable', v.reason);
    err.sentence = `${title} was not opened: ${v.label} would crash on it (${v.reason.replace(/\.$/, '')}). Recompile it with the Dataflow Compiler.`;
    return err;
  }
  const kind = v.status === 91 ? 'hef-corrupted' : v.status === 92 ? 'hef-not-supported' : 'hef-unreadable';
  const err = errorFromKind(kind, v.reason, v.status ?? null, v.statusName);
  const fix =
    v.status === 91
      ? 'copy or compile it again'
      : v.status === 92
        ? 'compile it with a Dataflow Compiler that matches this HailoRT, or update HailoRT'
        : 'recompile it with the Dataflow Compiler';
  err.sentence = `${title} was not opened: read before HailoRT, it is a file ${v.label} refuses with ${v.statusName} (${v.reason.replace(/\.$/, '')}); ${fix}.`;
  return err;
}
