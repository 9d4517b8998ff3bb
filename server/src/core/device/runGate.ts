// The one pre-run gate: may this HEF run on this device under this HailoRT? Every path that opens a
// HEF on the device asks it through gateBeforeRun — Run on Device in the extension (before the
// progress panel), `hailo-tools run` (before its run request), and the worker itself
// (hailortSession.ts: run, open; chat.ts; speech.ts) for every caller that reaches it directly
// (sweeps, accuracy, bench). Same inputs, same verdict in each: allow, warn (HailoRT runs it and
// says why it is slower) or refuse (one DeviceError whose sentence names the fix; `gate` names the
// rule, so a caller that bypassed the gate shows in test/device/run-gate-agreement.test.ts).
//
// The rules, in HailoRT's own order (its C example, hailort/libhailort/examples/c/vstreams_example/
// vstreams_example.c at github.com/hailo-ai/hailort: scan, create the Hef — no device needed —,
// create the VDevice, configure): the file, then the device HailoRT would take (a VDevice without
// device ids takes the first free device of the scan:
// docs/research/hailort5-api.md#busy-devices-and-sharing), then the pair:
//  1. what the installed HailoRT does with the file, read before it does (hefGate.ts over
//     core/hef/verdict.ts, which is tested against what the real libhailort 4.23.0 and 5.2.0 said):
//     crash, or refuse with its status;
//  2. our reader: no bytes, or not a HEF at all;
//  2b. a frame over LIMITS.deviceFrameBytes: the shim allocates (slots + 1) frames of every stream
//     inside hts_open (native/hailo_shim.cpp), before the worker sees HailoRT's sizes, so the bound
//     is applied to our reader's frame sizes first, in the host format the model will be opened
//     with (frameBytes.ts: a float32 open makes a uint8 frame 4× larger); hts_open also takes the
//     bound and refuses before allocating, for a body our reader could not decode;
//  3. a file 5.1+ opens although its config words are cut or changed (it hashes only the protobuf
//     body; 4.x refuses the same file with 91): the file's own whole-file hash says it is not what the
//     compiler wrote, so it is not sent to the device;
//  4. no device (no driver loaded, or none scanned), none HailoRT could identify (its identify
//     failure, e.g. the driver/library mismatch, is the answer — never an architecture verdict);
//  5. a device family this HailoRT does not open at all (hailortVersions.ts runtimeOpensDevice);
//  6. the HEF's architecture against the device, by the rule of the HailoRT that will open it
//     (hailortVersions.ts hefRunsOnDevice: 4.x is_hef_compatible, 5.x the HEF's compatible devices).
// Pure.
import type { HefReport } from '../hef';
import { limitMessage } from '../common/limits';
import { frameOverLimit } from './frameBytes';
import { errorFromKind, HailoStatus, type SystemFacts } from './errors';
import { hefRefusal, verdictForRuntime } from './hefGate';
import { archMismatchSentence, hefRunsOnDevice, parseVersion, runtimeOpensDevice } from './hailortVersions';
import type { DeviceError, DeviceInfo, GateRule, IoFormat, ScanResult } from './protocol';

export type { GateRule } from './protocol';

/** Both sides of the architecture check, as a run document records them. */
export interface GateArch {
  /** The HEF's architecture as our HEF reader reads it (e.g. `HAILO15H`). */
  hefArch: string;
  /** Devices HailoRT runs it on. */
  compatible: string[];
  /** The device's architecture, as identify() names it. */
  device: string;
  ok: boolean;
}

export interface GateInput {
  /** How the sentences name the file (its base name). */
  title: string;
  /** Our HEF reader's reading of the file. */
  report: HefReport;
  /** What the worker's scan found: HailoRT's version, the devices, the driver. */
  scan: Pick<ScanResult, 'runtime' | 'devices' | 'driver' | 'driverModule' | 'driverVersion'>;
  /** The host format the model will be opened with (default uint8, the HEF's own). */
  format?: IoFormat;
}

export type GateVerdict =
  | { action: 'allow' | 'warn'; rule: 'runs' | 'runs-slower'; device: DeviceInfo; arch: GateArch; warnings: string[] }
  | { action: 'refuse'; rule: GateRule; error: DeviceError & { gate: GateRule }; arch?: GateArch };

type Refusal = Extract<GateVerdict, { action: 'refuse' }>;

function refuse(rule: GateRule, error: DeviceError, arch?: GateArch): Refusal {
  return { action: 'refuse', rule, error: { ...error, gate: rule }, ...(arch ? { arch } : {}) };
}

/**
 * Rules 1–3, the file alone. `hailortVersion` null: not known yet (before the scan) — only what
 * needs no version is said (rules 2 and 2b); '' or a non-version: the file's own target line.
 * `format`: the host format the model will be opened with (rule 2b's frame bytes).
 */
export function hefFileGate(report: HefReport, title: string, hailortVersion: string | null, format: IoFormat = 'uint8'): Refusal | undefined {
  const version = hailortVersion === null ? undefined : hailortVersion || undefined;
  // 1. The installed HailoRT's own answer first (a header cut short is its 14); a file with no
  // bytes is only the reader's.
  if (hailortVersion !== null && report.fileSize > 0) {
    const refusal = hefRefusal(report, version, title);
    if (refusal) return refuse(verdictForRuntime(report, version).outcome === 'crashes' ? 'hailort-crashes' : 'hailort-refuses', refusal);
  }
  // 2. No bytes (missing, a folder, empty), or not a HEF at all.
  if (!report.container || !report.header) {
    const detail = (report.problems.find((p) => p.severity === 'error')?.message ?? 'the HEF header could not be read').replace(/\.$/, '');
    if (report.fileSize === 0) {
      // The reader's words name the path ("Cannot open '…': no such file", "'…' is a folder").
      const said = detail.charAt(0).toLowerCase() + detail.slice(1);
      return refuse('hef-unreadable', { ...errorFromKind('hef-missing', said), sentence: `The HEF was not read: ${said}; check the path.` });
    }
    return refuse('hef-unreadable', { ...errorFromKind('hef-unreadable', detail), sentence: `${title} is not a readable HEF: ${detail}.` });
  }
  // 2b. A frame HailoRT would allocate past the limit when the model opens.
  const tooLarge = frameOverLimit(report.networkGroups, format);
  if (tooLarge) {
    // the kind and sentence of the worker's own check after the open (hailortSession.ts frameOverLimit)
    return refuse('frame-too-large', { ...errorFromKind('hef-not-supported', tooLarge), sentence: limitMessage('deviceFrameBytes', `${title}'s ${tooLarge}`) });
  }
  if (hailortVersion === null) return undefined;
  // 3. Opened, but its config words are not the compiler's.
  const verdict = verdictForRuntime(report, version);
  if (verdict.damagesConfig) {
    return refuse('config-damaged', {
      ...errorFromKind('hef-corrupted', verdict.tolerated.join('; ')),
      sentence: `${title} was not run: ${verdict.label} would open it (it checks only the protobuf body's hash), but the file has ${verdict.tolerated[0]}. Copy or compile it again.`,
    });
  }
  return undefined;
}

/**
 * The gate as every path asks it: the file alone before the device is asked (a missing or broken
 * file is said without starting anything), then `scan` (the worker's), then rules 1–6.
 */
export async function gateBeforeRun(
  title: string,
  report: HefReport,
  scan: () => GateInput['scan'] | Promise<GateInput['scan']>,
  format: IoFormat = 'uint8',
): Promise<GateVerdict> {
  return hefFileGate(report, title, null, format) ?? runGate({ title, report, scan: await scan(), format });
}

/** The whole gate: rules 1–6 on what the scan found. */
export function runGate({ title, report, scan, format = 'uint8' }: GateInput): GateVerdict {
  const hailortVersion = scan.runtime.hailortVersion;
  const file = hefFileGate(report, title, hailortVersion, format);
  if (file) return file;
  const system = (device?: DeviceInfo): SystemFacts => ({
    hailortVersion: hailortVersion || undefined,
    driverModule: scan.driverModule,
    driverVersion: scan.driverVersion,
    deviceArch: device && device.architectureId >= 0 ? device.architecture : undefined,
    firmware: device?.firmware ? device.firmware.split(' ')[0] : undefined,
  });
  // 4. The device HailoRT would take.
  if (scan.devices.length === 0) {
    if (scan.driver === 'missing') {
      return refuse(
        'driver-missing',
        errorFromKind('driver-missing', 'Device::scan found nothing and no hailo1x_pci/hailo_pci kernel module is loaded', null, undefined, system()),
      );
    }
    return refuse('no-device', errorFromKind('no-device', 'Device::scan found no device', HailoStatus.OUT_OF_PHYSICAL_DEVICES));
  }
  const device = scan.devices.find((d) => !d.identifyError);
  if (!device) return refuse('device-unidentified', scan.devices[0].identifyError!);
  // 5. HailoRT's own refusal of a device family it does not run (pcie_device.cpp).
  const runtime = parseVersion(hailortVersion);
  const opens = runtime ? runtimeOpensDevice(runtime, device.architecture) : { ok: true as const };
  if (!opens.ok) {
    return refuse(
      'runtime-refuses-device',
      errorFromKind('runtime-mismatch', `HailoRT ${hailortVersion}: "${opens.hailortSays}"`, null, undefined, system(device)),
    );
  }
  // 6. The pair, by the rule of this HailoRT (without a version: 5.x's).
  const h = report.header!.hwArch;
  const v = hefRunsOnDevice(runtime ?? { major: 5, minor: 2, revision: 0 }, h.id, h.compatibleDevices, device.architecture);
  const arch: GateArch = { hefArch: h.name, compatible: h.compatibleDevices, device: device.architecture, ok: v.ok };
  if (!v.ok) {
    return refuse('arch-mismatch', { ...errorFromKind('arch-mismatch', v.detail), sentence: archMismatchSentence(title, v.detail, device.architecture) }, arch);
  }
  return v.warning
    ? { action: 'warn', rule: 'runs-slower', device, arch, warnings: [v.warning] }
    : { action: 'allow', rule: 'runs', device, arch, warnings: [] };
}
