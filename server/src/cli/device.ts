// `hailo-tools devices [--json]` and `hailo-tools run [--json] [--frames N] [--input …] [--format
// uint8|float32] [--batch N] [--queue N] HEF`: the device half of the CLI. Both go through
// DeviceClient (a worker process loads the native HailoRT bridge), so a crash in native code
// prints a sentence instead of killing the CLI. Exit codes — devices: 0 a device was identified,
// 1 none (no device, no driver, or none HailoRT could identify, e.g. the driver/library
// mismatch), 2 could not ask (HailoRT missing, usage); run: 0 every check passed, 1 a check
// failed, 2 could not run (one sentence says why).
import { basename, resolve } from 'node:path';
import { commandLineTrust } from '../core/common/trust';
import { readHefFile } from '../core/hef';
import { gateBeforeRun } from '../core/device/runGate';
import { DeviceClient, DeviceRequestError } from '../processes/device/client';
import { describeError, errorFromKind } from '../core/device/errors';
import { parseInputSpec } from '../core/device/inputs';
import type { DeviceError, DeviceInfo, RunReport, ScanResult, StreamInfo } from '../core/device/protocol';
import { DEFAULT_OPEN_OPTIONS } from '../core/device/protocol';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { maxOf } from '../core/common/arrays';
import { optionRows, parseCommand, usageError, type OptionValues } from './args';
import { reportLines } from '../core/common/escape';

/** The options every device command takes (after its own, in one table). */
export const COMMON_OPTIONS = {
  hailort: { type: 'string', arg: 'DIR', help: 'HailoRT install prefix (else HAILORT_ROOT, the HailoRT CMake config, /usr, /usr/local)' },
  'group-id': {
    type: 'string',
    default: DEFAULT_OPEN_OPTIONS.groupId,
    arg: 'ID',
    help: 'VDevice group id: UNIQUE (default) takes the device alone; the same other id in\nseveral processes shares it (on HailoRT 4.x through hailort.service)',
  },
  timeout: {
    type: 'string',
    arg: 'MS',
    missing: '--timeout needs an integer ≥ 1',
    help: `per-call HailoRT timeout (default ${DEFAULT_OPEN_OPTIONS.timeoutMs})`,
  },
  json: { type: 'boolean', help: 'print one JSON document' },
} as const;

const DEVICES_USAGE = `usage: hailo-tools devices [--json] [--hailort DIR]

Lists the Hailo devices HailoRT sees (Device::scan + identify): id, architecture, firmware, serial.
${helpTable(optionRows(COMMON_OPTIONS))}
Exit: 0 a device was identified, 1 none (no device, no driver, or none HailoRT could identify),
2 HailoRT missing or another failure.
`;

const RUN_OPTIONS = {
  frames: { type: 'string', arg: 'N', missing: '--frames needs an integer ≥ 1', help: 'frames per throughput measurement (default 200)' },
  input: {
    type: 'string',
    default: 'random',
    arg: 'SPEC',
    missing: '--input needs random, normal, a .npy file or an image',
    help: 'random (uniform, default), normal, a .npy array, or a PNG/JPEG image',
  },
  seed: { type: 'string', arg: 'N', missing: '--seed needs an integer', help: 'seed of random/normal inputs (default: 1171 and 2026, as the published probe)' },
  format: { type: 'string', default: 'uint8', arg: 'F', help: 'host I/O: uint8 (quantised, default) or float32' },
  batch: { type: 'string', arg: 'N', missing: '--batch needs an integer', help: 'batch size (default 0: HailoRT chooses)' },
  queue: { type: 'string', arg: 'N', missing: '--queue needs an integer', help: "frames in flight (default: the model's async queue size)" },
  ...COMMON_OPTIONS,
} as const;

const RUN_USAGE = `usage: hailo-tools run [--json] [--frames N] [--input random|normal|FILE.npy|IMAGE]
                       [--format uint8|float32] [--batch N] [--queue N] [--seed N] HEF

Runs a HEF on the attached device: per-output statistics of the first frame (mean, std, min, max,
argmax, sha256 prefix), the checks (different inputs → different outputs; same input twice →
bit-identical; an undersized input refused), latency p50/p99, FPS and FPS by queue depth.
${helpTable(optionRows(RUN_OPTIONS))}
Exit: 0 every check passed, 1 a check failed, 2 could not run.
`;

export interface Common {
  json: boolean;
  hailortRoot?: string;
  groupId: string;
  timeoutMs: number;
}

/** An integer option's value (its default when not given), or undefined after saying why not. */
export function intArg(command: string, name: string, v: string | undefined, fallback: number, io: CliIO, min = 0): number | undefined {
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min) {
    io.err(`hailo-tools ${command}: ${name} needs an integer${min > 0 ? ` ≥ ${min}` : ''}\n`);
    return undefined;
  }
  return Number(v);
}

/** The common options as the device client takes them, or undefined after saying why not. */
export function commonOf(command: string, v: OptionValues<typeof COMMON_OPTIONS>, io: CliIO): Common | undefined {
  const timeoutMs = intArg(command, '--timeout', v.timeout, DEFAULT_OPEN_OPTIONS.timeoutMs, io, 1);
  if (timeoutMs === undefined) return undefined;
  return { json: v.json, hailortRoot: v.hailort, groupId: v['group-id'], timeoutMs };
}

export function client(c: Common, io: CliIO, action: string): DeviceClient {
  return new DeviceClient({
    trust: commandLineTrust(action),
    hailortRoot: c.hailortRoot,
    requestTimeoutMs: Math.max(30_000, c.timeoutMs * 6),
    onEvent: (e) => {
      if (e.type === 'build') io.err(`hailo-tools: ${e.message}\n`);
    },
  });
}

export function fail(io: CliIO, json: boolean, error: DeviceError): number {
  if (json) io.out(JSON.stringify({ error }, null, 2) + '\n');
  else io.err(`hailo-tools: ${describeError(error)}\n`);
  return EXIT_USAGE;
}

export function errorOf(err: unknown): DeviceError {
  if (err instanceof DeviceRequestError) return err.error;
  return errorFromKind('hailort-error', (err as Error)?.message ?? String(err));
}

function deviceLine(d: DeviceInfo): string {
  if (d.identifyError) return `  ${d.id}  (HailoRT could not open it: ${d.identifyError.name})`;
  return `  ${d.id}  ${d.architecture}  firmware ${d.firmware}  serial ${d.serial || '-'}  board ${d.boardName || '-'}  ${d.productName}`;
}

function runtimeLine(scan: Pick<ScanResult, 'runtime'>): string {
  const r = scan.runtime;
  return `HailoRT ${r.hailortVersion}${r.libraryPath ? ` (${r.libraryPath})` : ''}${r.fake ? ' — the fake libhailort under test/, not a device' : ''}`;
}

export async function runDevices(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('devices', DEVICES_USAGE, COMMON_OPTIONS, args, io, { positionals: false });
  if (typeof parsed === 'number') return parsed;
  const c = commonOf('devices', parsed.values, io);
  if (!c) return EXIT_USAGE;
  const dc = client(c, io, 'devices');
  try {
    const scan = await dc.scan();
    if (c.json) io.out(JSON.stringify(scan, null, 2) + '\n');
    else {
      io.out(`${runtimeLine(scan)}\n`);
      if (scan.devices.length === 0) io.out('No Hailo device found.\n');
      else io.out(`${scan.devices.length} device${scan.devices.length === 1 ? '' : 's'}:\n${scan.devices.map(deviceLine).join('\n')}\n`);
    }
    if (scan.devices.some((d) => !d.identifyError)) return EXIT_OK;
    // Listed but not identified: the identify failure is the sentence (e.g. 76/86, the driver's version).
    const error =
      scan.devices[0]?.identifyError ??
      (scan.driver === 'missing'
        ? errorFromKind('driver-missing', 'Device::scan found nothing and no hailo1x_pci/hailo_pci kernel module is loaded', null, undefined, {
            hailortVersion: scan.runtime.hailortVersion,
          })
        : errorFromKind('no-device', 'Device::scan found no device'));
    if (!c.json) io.err(`hailo-tools: ${scan.devices.length > 0 ? describeError(error) : error.sentence}\n`);
    return EXIT_FINDINGS;
  } catch (err) {
    return fail(io, c.json, errorOf(err));
  } finally {
    dc.dispose();
  }
}

function streamLine(s: StreamInfo): string {
  return `${s.name} ${s.type} ${s.order}(${s.shape.join('x')}) ${s.frameSize.toLocaleString('en-US')} B`;
}

function fmt(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

export function describeRun(r: RunReport): string {
  const m = r.model;
  const lines: string[] = [];
  lines.push(`HEF: ${r.hef}`);
  lines.push(`Device: ${m.device.id} ${m.device.architecture}, firmware ${m.device.firmware} — ${runtimeLine(r)}`);
  lines.push(`I/O ${m.format}, batch ${m.batch || 'auto'}, async queue size ${m.asyncQueueSize}`);
  for (const s of m.inputs) lines.push(`  in   ${streamLine(s)}`);
  for (const s of m.outputs) lines.push(`  out  ${streamLine(s)}`);
  lines.push(`Input: ${r.input.text}`, '');
  const rows = r.outputs.map((o) => [o.name, fmt(o.mean), fmt(o.std), fmt(o.min), fmt(o.max), String(o.argmax), o.sha256]);
  const head = ['output (first frame)', 'mean', 'std', 'min', 'max', 'argmax', 'sha256'];
  const widths = head.map((h, i) => Math.max(h.length, maxOf(rows.map((row) => row[i].length))));
  for (const row of [head, ...rows])
    lines.push(
      '  ' +
        row
          .map((cell, i) => cell.padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
    );
  lines.push('', 'Checks:');
  for (const c of r.checks) lines.push(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.name} — ${c.detail}`);
  lines.push('');
  lines.push(`Latency (one frame at a time, ${r.latency.samples} frames): p50 ${r.latency.p50Ms.toFixed(2)} ms, p99 ${r.latency.p99Ms.toFixed(2)} ms`);
  lines.push(`Throughput at queue depth ${r.fps.queueDepth} (${r.fps.frames} frames): ${r.fps.fps.toFixed(1)} FPS (${r.fps.msPerFrame.toFixed(3)} ms/frame)`);
  lines.push('FPS by queue depth:', '  depth  FPS       ms/frame  vs depth 1');
  const base = r.fpsByQueue[0]?.fps ?? NaN;
  for (const p of r.fpsByQueue)
    lines.push(`  ${String(p.queueDepth).padEnd(5)}  ${p.fps.toFixed(1).padEnd(8)}  ${p.msPerFrame.toFixed(3).padEnd(8)}  ${(p.fps / base).toFixed(2)}x`);
  const passed = r.checks.filter((c) => c.pass).length;
  for (const note of r.notes ?? []) lines.push('', `Note: ${note}`);
  lines.push('', `${passed} of ${r.checks.length} checks passed`);
  return reportLines(lines);
}

export async function runRun(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('run', RUN_USAGE, RUN_OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const v = parsed.values;
  const c = commonOf('run', v, io);
  if (!c) return EXIT_USAGE;
  const frames = intArg('run', '--frames', v.frames, 200, io, 1);
  if (frames === undefined) return EXIT_USAGE;
  const batch = intArg('run', '--batch', v.batch, 0, io);
  if (batch === undefined) return EXIT_USAGE;
  const queue = intArg('run', '--queue', v.queue, 0, io);
  if (queue === undefined) return EXIT_USAGE;
  const seed = v.seed === undefined ? undefined : intArg('run', '--seed', v.seed, 0, io);
  if (v.seed !== undefined && seed === undefined) return EXIT_USAGE;
  const { input, format } = v;
  if (format !== 'uint8' && format !== 'float32') {
    io.err(`hailo-tools run: --format is uint8 or float32, not '${format}'\n`);
    return EXIT_USAGE;
  }
  const files = parsed.positionals;
  if (files.length !== 1) return usageError(io, 'run', RUN_USAGE, `expected exactly one HEF, got ${files.length}`);
  const spec = parseInputSpec(input, seed);
  if (spec.kind === 'npy' || spec.kind === 'image') spec.path = resolve(spec.path);
  const hef = resolve(files[0]);
  const hefReport = await readHefFile(hef, { verifyResources: false });
  const dc = client(c, io, 'run');
  try {
    // The pre-run gate (core/device/runGate.ts), as Run on Device asks it: a missing or broken file
    // before the worker starts, then the worker's scan; its warnings come back in the report's notes.
    const gate = await gateBeforeRun(basename(hef), hefReport, () => dc.scan(), format);
    if (gate.action === 'refuse') return fail(io, c.json, gate.error);
    const report = await dc.run({ hef, input: spec, frames, format, batch, queue, groupId: c.groupId, timeoutMs: c.timeoutMs });
    io.out(c.json ? JSON.stringify(report, null, 2) + '\n' : describeRun(report));
    return report.checks.every((k) => k.pass) ? EXIT_OK : EXIT_FINDINGS;
  } catch (err) {
    return fail(io, c.json, errorOf(err));
  } finally {
    dc.dispose();
  }
}
