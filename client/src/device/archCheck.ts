// Before anything is opened on the device: our HEF reader (server/src/hef) says what the installed
// HailoRT would do with the file (load it, refuse it with which status, crash) and which devices it
// runs on, and that is checked against what the scan found — so a refusal is said first, in one
// sentence with the real status, and a file that would crash libhailort never reaches the worker.
// Pure.
import { type DeviceError, type DeviceInfo, errorFromKind, hefRefusal, verdictForRuntime, type HefReport } from '@hailo/api';
import type { ArchCheck } from './runDocument';

export type HefDeviceCheck = { ok: true; arch: ArchCheck; device: DeviceInfo } | { ok: false; error: DeviceError; arch?: ArchCheck };

export function checkHefForDevice(report: HefReport, devices: DeviceInfo[], title: string, hailortVersion?: string): HefDeviceCheck {
  const refusal = hefRefusal(report, hailortVersion, title);
  if (refusal) return { ok: false, error: refusal };
  const firstError = report.problems.find((p) => p.severity === 'error');
  if (!report.container || !report.header) {
    const detail = firstError?.message ?? 'the HEF header could not be read';
    return { ok: false, error: { ...errorFromKind('hef-unreadable', detail), sentence: `${title} is not a readable HEF: ${detail}` } };
  }
  // HailoRT 5.1+ opens a V3 file whose config words are cut or changed (it hashes only the body);
  // the device would then fail to configure or compute garbage, so it is not sent there.
  const verdict = verdictForRuntime(report, hailortVersion);
  if (verdict.damagesConfig) {
    const err = errorFromKind('hef-corrupted', verdict.tolerated.join('; '));
    err.sentence = `${title} was not run: ${verdict.label} would open it (it checks only the protobuf body's hash), but the file has ${verdict.tolerated[0]}. Copy or compile it again.`;
    return { ok: false, error: err };
  }
  const h = report.header.hwArch;
  const arch = (device: string): ArchCheck => ({ hefArch: h.name, compatible: h.compatibleDevices, device, ok: h.compatibleDevices.includes(device) });
  if (devices.length === 0) return { ok: false, error: errorFromKind('no-device', 'scan() listed no device') };
  const device = devices.find((d) => h.compatibleDevices.includes(d.architecture));
  if (!device) {
    const found = [...new Set(devices.map((d) => d.architecture))].join(', ');
    return {
      ok: false,
      arch: arch(devices[0].architecture),
      error: {
        ...errorFromKind('arch-mismatch', `HEF ${h.name} (runs on ${h.compatibleDevices.join(', ')}) vs device ${found}`),
        sentence: `${title} was compiled for ${h.name}, which HailoRT runs on ${h.compatibleDevices.join(', ') || 'no known device'}; the attached device is ${found}. Recompile it for the device with the Dataflow Compiler (--hw-arch).`,
      },
    };
  }
  return { ok: true, arch: arch(device.architecture), device };
}
