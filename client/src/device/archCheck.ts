// Before anything is opened on the device: our HEF reader (server/src/core/hef) says what the installed
// HailoRT would do with the file (load it, refuse it with which status, crash) and which devices it
// runs on, and that is checked against what the scan found, by the rule of the HailoRT the scan ran
// on (4.x: a Hailo-8L runs only hailo8l HEFs; 5.x: the HEF's compatible devices) — so a refusal is
// said first, in one sentence with the real status, and a file that would crash libhailort never
// reaches the worker. A device HailoRT could not identify is never given an architecture verdict:
// its identify failure (e.g. the driver/library mismatch) is the answer. Pure.
import {
  archMismatchSentence,
  checkArchitecture,
  type DeviceError,
  type DeviceInfo,
  errorFromKind,
  hefRefusal,
  type HefReport,
  verdictForRuntime,
} from '@hailo/api';
import type { ArchCheck } from './runDocument';

export type HefDeviceCheck = { ok: true; arch: ArchCheck; device: DeviceInfo; warning?: string } | { ok: false; error: DeviceError; arch?: ArchCheck };

/** The file alone (said before the device is asked): missing, not a HEF. */
export function checkHefFile(report: HefReport, title: string): { ok: true } | { ok: false; error: DeviceError } {
  const firstError = report.problems.find((p) => p.severity === 'error');
  if (!report.container || !report.header) {
    const detail = firstError?.message ?? 'the HEF header could not be read';
    return {
      ok: false,
      error: { ...errorFromKind(report.fileSize === 0 ? 'hef-missing' : 'hef-unreadable', detail), sentence: `${title} is not a readable HEF: ${detail}` },
    };
  }
  return { ok: true };
}

export function checkHefForDevice(report: HefReport, devices: DeviceInfo[], title: string, hailortVersion?: string): HefDeviceCheck {
  // The installed HailoRT's own answer first (a header cut short is its 14), then what only our
  // reader sees; a missing file (no bytes) is only the reader's.
  const refusal = report.fileSize > 0 ? hefRefusal(report, hailortVersion, title) : undefined;
  if (refusal) return { ok: false, error: refusal };
  const file = checkHefFile(report, title);
  if (!file.ok) return file;
  // HailoRT 5.1+ opens a V3 file whose config words are cut or changed (it hashes only the body);
  // the device would then fail to configure or compute garbage, so it is not sent there.
  const verdict = verdictForRuntime(report, hailortVersion);
  if (verdict.damagesConfig) {
    const err = errorFromKind('hef-corrupted', verdict.tolerated.join('; '));
    err.sentence = `${title} was not run: ${verdict.label} would open it (it checks only the protobuf body's hash), but the file has ${verdict.tolerated[0]}. Copy or compile it again.`;
    return { ok: false, error: err };
  }
  const h = report.header!.hwArch;
  if (devices.length === 0) return { ok: false, error: errorFromKind('no-device', 'scan() listed no device') };
  const identified = devices.filter((d) => !d.identifyError);
  if (identified.length === 0) return { ok: false, error: devices[0].identifyError! };
  const verdicts = identified.map((d) => ({ d, v: checkArchitecture(report, d.architecture, hailortVersion) }));
  const arch = (x: (typeof verdicts)[number]): ArchCheck => ({ hefArch: h.name, compatible: h.compatibleDevices, device: x.d.architecture, ok: x.v.ok });
  const runs = verdicts.find((x) => x.v.ok);
  if (!runs) {
    const first = verdicts[0];
    return {
      ok: false,
      arch: arch(first),
      error: {
        ...errorFromKind('arch-mismatch', `HEF ${h.name}: ${first.v.detail}`),
        sentence: archMismatchSentence(title, first.v.detail, first.d.architecture),
      },
    };
  }
  return { ok: true, arch: arch(runs), device: runs.d, warning: runs.v.warning };
}
