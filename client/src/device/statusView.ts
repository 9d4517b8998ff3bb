// The device status bar item's text, tooltip and look for each state. Pure: the controller
// (statusBar.ts) decides when to ask the device; this decides what the user reads. Nothing here
// is alarming in Restricted Mode: the item says only that it does not look there.
import type { DeviceError, DeviceInfo, RuntimeInfo } from '@hailo/api';

export type DeviceState =
  | { kind: 'restricted' }
  | { kind: 'checking' }
  | { kind: 'present'; devices: DeviceInfo[]; runtime: RuntimeInfo; checkedAt: Date; setup?: SetupSummary }
  | { kind: 'running'; hef: string; devices: DeviceInfo[] }
  | { kind: 'busy'; error: DeviceError; checkedAt: Date }
  | { kind: 'none'; runtime?: RuntimeInfo; checkedAt: Date; setup?: SetupSummary }
  | { kind: 'hailort-missing'; error: DeviceError; checkedAt: Date }
  | { kind: 'error'; error: DeviceError; checkedAt: Date };

/** What Hailo: Check Setup found (its findings' counts and the first error's sentence). */
export interface SetupSummary {
  errors: number;
  warnings: number;
  first?: string;
}

const setupLine = (s?: SetupSummary) =>
  s && s.errors + s.warnings > 0
    ? `\nSetup: ${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}${s.first ? ` — ${s.first}` : ''} (Hailo: Check Setup).`
    : '';
const setupWarns = (s?: SetupSummary) => !!s && s.errors + s.warnings > 0;

export interface StatusView {
  text: string;
  tooltip: string;
  /** Use the warning background (only for states the user can fix). */
  warning: boolean;
}

const at = (d: Date) => d.toISOString().slice(11, 19);
const CLICK = 'Click for device details.';

export function statusView(s: DeviceState): StatusView {
  switch (s.kind) {
    case 'restricted':
      return {
        text: '$(circuit-board) Hailo',
        tooltip: 'Hailo device: not checked in Restricted Mode (looking for a device loads HailoRT, native code). Trust this folder to run on a device.',
        warning: false,
      };
    case 'checking':
      return { text: '$(sync~spin) Hailo', tooltip: 'Looking for a Hailo device…', warning: false };
    case 'present': {
      const d = s.devices[0];
      const more = s.devices.length > 1 ? ` +${s.devices.length - 1}` : '';
      const lines = s.devices.map((x) => `${x.architecture} ${x.id}${x.firmware ? `, firmware ${x.firmware}` : ''}`);
      return {
        text: `$(circuit-board) ${d.architecture}${more}`,
        tooltip: `Hailo device ready (HailoRT ${s.runtime.hailortVersion}${s.runtime.fake ? ', FAKE test library' : ''}):\n${lines.join('\n')}${setupLine(s.setup)}\nChecked at ${at(s.checkedAt)}. ${CLICK}`,
        warning: setupWarns(s.setup),
      };
    }
    case 'running':
      return { text: `$(loading~spin) ${s.devices[0]?.architecture ?? 'Hailo'} busy`, tooltip: `Running ${s.hef} on the device. ${CLICK}`, warning: false };
    case 'busy':
      return { text: '$(circuit-board) Hailo busy', tooltip: `${s.error.sentence}\nChecked at ${at(s.checkedAt)}. ${CLICK}`, warning: true };
    case 'none':
      return {
        text: '$(circle-slash) No Hailo device',
        tooltip: `No Hailo device was found${s.runtime ? ` (HailoRT ${s.runtime.hailortVersion})` : ''}.${setupLine(s.setup)}\nChecked at ${at(s.checkedAt)}. ${CLICK}`,
        warning: setupWarns(s.setup),
      };
    case 'hailort-missing':
      return { text: '$(circle-slash) HailoRT missing', tooltip: `${s.error.sentence}\nChecked at ${at(s.checkedAt)}. ${CLICK}`, warning: false };
    case 'error':
      return { text: '$(warning) Hailo device', tooltip: `${s.error.sentence}\nChecked at ${at(s.checkedAt)}. ${CLICK}`, warning: true };
  }
}

/** The state a scan result or a scan failure puts the item in. */
export function stateFromScan(result: { devices: DeviceInfo[]; runtime: RuntimeInfo } | { error: DeviceError }, now = new Date()): DeviceState {
  if ('error' in result) {
    const e = result.error;
    if (e.kind === 'hailort-missing') return { kind: 'hailort-missing', error: e, checkedAt: now };
    if (e.kind === 'no-device') return { kind: 'none', checkedAt: now };
    if (e.kind === 'busy') return { kind: 'busy', error: e, checkedAt: now };
    return { kind: 'error', error: e, checkedAt: now };
  }
  // Listed but none identified (e.g. 76/86, the driver's version): that failure, not "present".
  if (result.devices.length > 0 && result.devices.every((d) => d.identifyError))
    return { kind: 'error', error: result.devices[0].identifyError!, checkedAt: now };
  return result.devices.length
    ? { kind: 'present', devices: result.devices.filter((d) => !d.identifyError), runtime: result.runtime, checkedAt: now }
    : { kind: 'none', runtime: result.runtime, checkedAt: now };
}
