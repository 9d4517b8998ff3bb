// What the user sees when a device run fails: the DeviceError's one sentence (server/src/core/device/
// errors.ts) as an error message, with a button where a fix exists. Pure, so every failure kind's
// buttons are tested without VS Code; runOnDevice.ts carries the actions out.
import type { DeviceError, DeviceErrorKind } from '@hailo/api';

export type FailureAction =
  | { label: string; kind: 'open-settings'; setting: string }
  | { label: string; kind: 'retry' }
  | { label: string; kind: 'change-options' }
  | { label: string; kind: 'open-inspector' }
  | { label: string; kind: 'show-log' }
  | { label: string; kind: 'manage-trust' }
  | { label: string; kind: 'check-setup' };

const SETTINGS = (setting: string): FailureAction => ({ label: 'Open Settings', kind: 'open-settings', setting });
const RETRY: FailureAction = { label: 'Retry', kind: 'retry' };
const LOG: FailureAction = { label: 'Show Log', kind: 'show-log' };
const INSPECT: FailureAction = { label: 'Open in HEF Inspector', kind: 'open-inspector' };
const OPTIONS: FailureAction = { label: 'Change Input', kind: 'change-options' };
/** Hailo: Check Setup — the table of every installed piece and where they disagree. */
export const CHECK_SETUP_COMMAND = 'hailo.checkSetup';
const SETUP: FailureAction = { label: 'Check Setup', kind: 'check-setup' };

/** The buttons each failure offers (at most three: VS Code shows them inline). */
export const FAILURE_ACTIONS: Record<DeviceErrorKind, FailureAction[]> = {
  'hailort-missing': [SETTINGS('hailo.hailort.path'), SETUP, LOG],
  'build-failed': [LOG, SETTINGS('hailo.hailort.path')],
  'driver-missing': [SETUP, LOG, RETRY],
  'driver-mismatch': [SETUP, LOG, RETRY],
  'runtime-mismatch': [SETUP, SETTINGS('hailo.hailort.path'), LOG],
  'firmware-mismatch': [SETUP, LOG],
  'service-missing': [SETUP, SETTINGS('hailo.device.groupId'), RETRY],
  'service-mismatch': [SETUP, LOG, RETRY],
  'hef-missing': [OPTIONS],
  'no-device': [RETRY],
  busy: [RETRY, SETTINGS('hailo.device.groupId')],
  'arch-mismatch': [INSPECT],
  'hef-not-compatible': [INSPECT],
  'hef-corrupted': [INSPECT],
  'hef-not-supported': [INSPECT, LOG],
  'hef-unreadable': [INSPECT],
  'wrong-input-size': [OPTIONS],
  'bad-input': [OPTIONS],
  timeout: [RETRY, LOG],
  'worker-crashed': [RETRY, LOG],
  untrusted: [{ label: 'Manage Workspace Trust', kind: 'manage-trust' }],
  'hailort-error': [LOG, RETRY],
  'not-genai': [INSPECT],
  'genai-busy': [RETRY, LOG],
  'lora-missing': [INSPECT],
  'wrong-frames': [LOG],
  'bad-params': [LOG],
  'hailort-too-old': [SETTINGS('hailo.hailort.path'), LOG],
  'native-missing': [LOG],
  'compiler-missing': [LOG, RETRY],
  'not-speech': [INSPECT],
  'bad-audio': [LOG],
};

export function failureMessage(err: DeviceError): { text: string; actions: FailureAction[] } {
  const code = err.status !== null ? ` (${err.name}, status ${err.status})` : '';
  // The sentence already names the status for the generic kind; otherwise append it once.
  const named = err.sentence.includes(err.name) || err.sentence.includes(`status ${err.status}`);
  const text = err.status !== null && !named ? `${err.sentence}${code}` : err.sentence;
  return { text, actions: FAILURE_ACTIONS[err.kind] ?? [LOG] };
}
