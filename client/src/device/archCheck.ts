// Before anything is opened on the device: our HEF reader (server/src/hef) says whether the file
// is intact and which devices HailoRT runs it on, and that is checked against what the scan found,
// by the rule of the HailoRT the scan ran on (4.x: a Hailo-8L runs only hailo8l HEFs; 5.x: the
// HEF's compatible devices). A device HailoRT could not identify is never given an architecture
// verdict: its identify failure (e.g. the driver/library mismatch) is the answer. Pure.
import { archMismatchSentence, checkArchitecture, type DeviceError, type DeviceInfo, errorFromKind, type HefReport, isIntact } from '@hailo/api';
import type { ArchCheck } from './runDocument';

export type HefDeviceCheck = { ok: true; arch: ArchCheck; device: DeviceInfo; warning?: string } | { ok: false; error: DeviceError; arch?: ArchCheck };

/** The file alone (said before the device is asked): missing, not a HEF, damaged. */
export function checkHefFile(report: HefReport, title: string): { ok: true } | { ok: false; error: DeviceError } {
  const firstError = report.problems.find((p) => p.severity === 'error');
  if (!report.container || !report.header) {
    const detail = firstError?.message ?? 'the HEF header could not be read';
    return {
      ok: false,
      error: { ...errorFromKind(report.fileSize === 0 ? 'hef-missing' : 'hef-unreadable', detail), sentence: `${title} is not a readable HEF: ${detail}` },
    };
  }
  if (!isIntact(report)) {
    const detail = report.integrity.ok ? (firstError?.message ?? 'a part of the file is missing') : report.integrity.detail;
    return {
      ok: false,
      error: {
        ...errorFromKind('hef-corrupted', detail),
        sentence: `${title} is damaged (${detail}); HailoRT would refuse it as corrupted (status 91): copy or compile it again.`,
      },
    };
  }
  return { ok: true };
}

export function checkHefForDevice(report: HefReport, devices: DeviceInfo[], title: string, hailortVersion?: string): HefDeviceCheck {
  const file = checkHefFile(report, title);
  if (!file.ok) return file;
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
