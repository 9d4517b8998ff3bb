// The pure parts of the device UI: one sentence and the right buttons per failure, the status
// bar's wording per state (nothing alarming in Restricted Mode), and run options read back from
// workspace state (data from disk: anything malformed falls back to a default).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAILURE_ACTIONS, failureMessage } from '../../../client/src/device/failures';
import { stateFromScan, statusView } from '../../../client/src/device/statusView';
import { DEFAULT_CHOICES, describeChoices, parseChoices, toRunOptions } from '../../../client/src/device/runChoices';
import { errorFromKind, errorFromStatus } from '../../../server/src/core/device/errors';
import type { DeviceErrorKind } from '../../../server/src/core/device/protocol';

const KINDS: DeviceErrorKind[] = [
  'hailort-missing',
  'build-failed',
  'driver-missing',
  'no-device',
  'busy',
  'arch-mismatch',
  'hef-not-compatible',
  'hef-corrupted',
  'hef-not-supported',
  'hef-unreadable',
  'wrong-input-size',
  'bad-input',
  'timeout',
  'worker-crashed',
  'untrusted',
  'hailort-error',
];

test('failures: one sentence per failure the issue lists, with its status, and a button where a fix exists', () => {
  for (const k of KINDS) assert.ok(FAILURE_ACTIONS[k]?.length >= 1 && FAILURE_ACTIONS[k].length <= 3, k);
  // The statuses of hailort.h (hailort5-api.md §1.8) reach the user with their number.
  const cases: [number, RegExp, string][] = [
    [74, /^No Hailo device was found/, 'Retry'],
    [93, /not compatible with this device \(status 93\)/, 'Open in HEF Inspector'],
    [91, /corrupted \(status 91\)/, 'Open in HEF Inspector'],
    [92, /does not support the HEF \(status 92\)/, 'Open in HEF Inspector'],
    [4, /did not answer in time \(status 4\)/, 'Retry'],
  ];
  for (const [status, sentence, button] of cases) {
    const m = failureMessage(errorFromStatus(status, 'open: x'));
    assert.match(m.text, sentence, `status ${status}`);
    assert.equal(m.text.match(/status \d+/g)?.length, 1, `the status is named once: ${m.text}`);
    assert.equal(m.actions[0].label, button, `status ${status}`);
  }
  // 74 with a device listed by scan is "busy", and its fix is the shared group id setting.
  const busy = failureMessage(errorFromStatus(74, 'create vdevice', { scanCount: 1 }));
  assert.match(busy.text, /^The Hailo device is busy/);
  assert.deepEqual(
    busy.actions.map((a) => a.kind === 'open-settings' && a.setting),
    [false, 'hailo.device.groupId'],
  );
  const missing = failureMessage(errorFromKind('hailort-missing', 'no libhailort'));
  assert.match(missing.text, /^HailoRT is not installed/);
  assert.deepEqual(missing.actions[0], { label: 'Open Settings', kind: 'open-settings', setting: 'hailo.hailort.path' });
  assert.match(failureMessage(errorFromKind('driver-missing', 'x')).text, /driver is not loaded/);
  assert.equal(failureMessage(errorFromKind('wrong-input-size', 'x')).actions[0].kind, 'change-options');
});

test('status bar: each state reads as it should; Restricted Mode is neutral', () => {
  const restricted = statusView({ kind: 'restricted' });
  assert.equal(restricted.warning, false);
  assert.doesNotMatch(restricted.text, /warning|error|missing/i);
  assert.match(restricted.tooltip, /not checked in Restricted Mode/);
  const runtime = { hailortVersion: '5.2.0', shimPath: '', libraryPath: '', fake: true };
  const dev = {
    id: '0000:3c:00.0',
    architecture: 'HAILO10H',
    architectureId: 6,
    firmware: '5.2.0 (release,app)',
    serial: '',
    boardName: '',
    partNumber: '',
    productName: '',
  };
  const at = new Date('2026-12-01T10:00:00Z');
  const present = statusView(stateFromScan({ devices: [dev], runtime }, at));
  assert.equal(present.text, '$(circuit-board) HAILO10H');
  assert.match(present.tooltip, /HailoRT 5\.2\.0, FAKE test library\):\nHAILO10H 0000:3c:00\.0, firmware 5\.2\.0 \(release,app\)\nChecked at 10:00:00/);
  assert.equal(statusView(stateFromScan({ devices: [], runtime }, at)).text, '$(circle-slash) No Hailo device');
  assert.equal(statusView(stateFromScan({ error: errorFromKind('hailort-missing', 'x') }, at)).text, '$(circle-slash) HailoRT missing');
  const busy = statusView(stateFromScan({ error: errorFromStatus(74, 'x', { scanCount: 1 }) }, at));
  assert.deepEqual([busy.text, busy.warning], ['$(circuit-board) Hailo busy', true]);
  assert.match(statusView({ kind: 'running', hef: 'a.hef', devices: [dev] }).text, /HAILO10H busy/);
});

test('status bar: a device HailoRT cannot open (76 or 86) shows the same mismatch sentence as run and devices; Check Setup findings turn it to a warning', () => {
  const at = new Date('2026-12-01T10:00:00Z');
  const runtime = { hailortVersion: '4.20.0', shimPath: '', libraryPath: '', fake: true };
  const system = { hailortVersion: '4.20.0', driverModule: 'hailo_pci', driverVersion: '4.18.0' };
  const listed = (status: number) => ({
    id: '0000:01:00.0',
    architecture: 'unknown',
    architectureId: -1,
    firmware: '',
    serial: '',
    boardName: '',
    partNumber: '',
    productName: '',
    identifyError: errorFromStatus(status, 'Device::create on 0000:01:00.0', { during: 'create-vdevice', system }),
  });
  const v76 = statusView(stateFromScan({ devices: [listed(76)], runtime }, at));
  const v86 = statusView(stateFromScan({ devices: [listed(86)], runtime }, at));
  assert.deepEqual([v76.text, v76.warning], ['$(warning) Hailo device', true]);
  const sentence = v76.tooltip.split('\n')[0];
  assert.equal(sentence, v86.tooltip.split('\n')[0], '76 and 86 read the same');
  assert.match(sentence, /^The Hailo driver \(hailo_pci 4\.18\.0\) and HailoRT \(4\.20\.0\) are different versions/);
  assert.deepEqual(failureMessage(errorFromStatus(76, 'x', { system })).actions[0], { label: 'Check Setup', kind: 'check-setup' });
  const dev = { ...listed(76), architecture: 'HAILO8L', architectureId: 2, firmware: '4.20.0 (release)', identifyError: undefined };
  const state = stateFromScan({ devices: [dev], runtime }, at);
  assert.equal(state.kind, 'present');
  if (state.kind === 'present')
    state.setup = { errors: 1, warnings: 0, first: 'The Python wheel hailo_platform 4.19.0 is built against exactly libhailort 4.19.0' };
  const withSetup = statusView(state);
  assert.equal(withSetup.warning, true);
  assert.match(withSetup.tooltip, /\nSetup: 1 error, 0 warnings — The Python wheel .* \(Hailo: Check Setup\)\./);
});

test("run options: remembered choices are validated; they become the worker's RunOptions", () => {
  assert.deepEqual(parseChoices(undefined), DEFAULT_CHOICES);
  assert.deepEqual(parseChoices({ frames: -5, format: 'int4', batch: 1.5, queue: 'x', input: 'npy', seed: 2 ** 40 }), DEFAULT_CHOICES);
  assert.deepEqual(parseChoices({ frames: 100, input: 'image', inputPath: '/a/cat.png', format: 'float32', batch: 2, queue: 32, seed: 2026 }), {
    frames: 100,
    input: 'image',
    inputPath: '/a/cat.png',
    seed: 2026,
    format: 'float32',
    batch: 2,
    queue: 32,
  });
  const c = parseChoices({ frames: 1000, input: 'normal', seed: 7 });
  assert.equal(describeChoices(c), '1,000 frames · normal (standard normal), seed 7 · uint8 · batch auto · queue auto');
  assert.deepEqual(toRunOptions('/m/a.hef', c, { groupId: 'SHARED', timeoutMs: 5000 }), {
    hef: '/m/a.hef',
    input: { kind: 'normal', seed: 7 },
    frames: 1000,
    format: 'uint8',
    batch: 0,
    queue: 0,
    groupId: 'SHARED',
    timeoutMs: 5000,
    keepTensors: true,
  });
});
