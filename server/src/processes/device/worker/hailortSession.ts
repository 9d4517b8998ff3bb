// HailortSession: the worker's HailoRT session — what the device worker does for each request,
// over the koffi Bridge: scan, open/infer/close, and a whole run (checks, statistics, latency, FPS
// by queue depth). Before anything is opened, the pre-run gate (core/device/runGate.ts) on this
// worker's scan — the same one Run on Device and `hailo-tools run` ask. Every failure leaves as a
// DeviceError with one sentence; HailoRT's "74" is told apart into "busy" (the scan lists a
// device) and "no device".
import { FileRoots } from '../../../core/common/confined';
import { basename, join } from 'node:path';
import { readHefFile, type HefReport } from '../../../core/hef';
import { errorFromKind, errorFromStatus, HailoStatus, type StatusContext, type SystemFacts } from '../../../core/device/errors';
import { InputError, makeInputs } from '../../../core/device/inputs';
import { deviceArchitectureName, formatOrderName, formatTypeName } from '../../../core/device/names';
import { gateBeforeRun, type GateVerdict } from '../../../core/device/runGate';
import { frameOverLimit } from '../../../core/device/frameBytes';
import type {
  CheckResult,
  DeviceError,
  DeviceInfo,
  FpsPoint,
  IoFormat,
  ModelInfo,
  OpenOptions,
  RunOptions,
  RunReport,
  RuntimeInfo,
  ScanResult,
  StreamInfo,
} from '../../../core/device/protocol';
import { histogramOf, outputStats, percentile, splitFrame } from '../../../core/device/stats';
import { limit, LimitError, limitMessage } from '../../../core/common/limits';
import { deviceHolders, holderSentence } from '../../../core/doctor/holders';
import { ShimError, shimFrameRefusal, type Bridge, type ShimModel, type ShimScanEntry, type ShimStream } from './bridge';

/** A request failure that carries its DeviceError to the host. */
export class DeviceFailure extends Error {
  constructor(readonly error: DeviceError) {
    super(error.sentence);
  }
}

/** A bound an answer of HailoRT crossed (bridge.ts), as the request's failure: the bound's one sentence. */
export function limitFailure(err: LimitError): DeviceFailure {
  return new DeviceFailure({ ...errorFromKind('hailort-error', err.message), sentence: err.message });
}

export type Progress = (phase: string, done?: number, total?: number) => void;

/** The gate's allow/warn verdict: the device HailoRT takes, HailoRT's warnings. */
export type GateAllowed = Extract<GateVerdict, { action: 'allow' | 'warn' }>;

const LATENCY_SAMPLES = 100;

export class HailortSession {
  private readonly open = new Map<number, { model: ModelInfo; shim: ShimModel }>();

  constructor(
    private readonly bridge: Bridge,
    private readonly runtime: RuntimeInfo,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {}

  hello(): RuntimeInfo {
    return this.runtime;
  }

  /** Whether the Hailo PCIe driver is loaded (Linux: its module or device node exists), and its version. */
  driverInfo(): Pick<ScanResult, 'driver' | 'driverModule' | 'driverVersion'> {
    if (process.platform !== 'linux') return { driver: 'unknown' };
    const root = this.env.HAILO_TOOLS_SYSFS_ROOT ?? '/';
    const system = FileRoots.system(root); // links resolved the system's way inside the root
    for (const module of ['hailo1x_pci', 'hailo_pci']) {
      if (!system.exists(join(root, 'sys', 'module', module))) continue;
      // MODULE_VERSION(HAILO_DRV_VER) in hailort-drivers linux/pcie/src/pcie.c
      const version =
        system
          .readTextOrUndefined(join(root, 'sys', 'module', module, 'version'), 4096)
          ?.trim()
          .slice(0, 32) || undefined;
      return { driver: 'loaded', driverModule: module, driverVersion: version };
    }
    return { driver: system.exists(join(root, 'dev', 'hailo0')) ? 'loaded' : 'missing' };
  }

  driver(): ScanResult['driver'] {
    return this.driverInfo().driver;
  }

  /** What the sentences may name: HailoRT's and the driver's versions. */
  system(device?: DeviceInfo): SystemFacts {
    const d = this.driverInfo();
    return {
      hailortVersion: this.runtime.hailortVersion || undefined,
      driverModule: d.driverModule,
      driverVersion: d.driverVersion,
      deviceArch: device && device.architectureId >= 0 ? device.architecture : undefined,
      firmware: device?.firmware ? device.firmware.split(' ')[0] : undefined,
    };
  }

  scan(): ScanResult {
    let entries: ShimScanEntry[];
    try {
      entries = this.bridge.scan();
    } catch (err) {
      throw this.failure(err, 'Device::scan');
    }
    const system = this.system();
    return { runtime: this.runtime, devices: entries.map((e) => deviceInfo(e, system)), ...this.driverInfo() };
  }

  /**
   * A busy device's error with who holds it (the processes with a Hailo device node open) and what
   * to do about each, when /proc says; other errors, or no holder found, as they are.
   */
  explainBusy(error: DeviceError, groupId: string): DeviceError {
    if (error.kind !== 'busy' && error.kind !== 'genai-busy') return error;
    const said = holderSentence(deviceHolders(this.env.HAILO_TOOLS_SYSFS_ROOT ?? '/'), groupId, this.runtime.hailortVersion);
    if (!said) return error;
    const lead = error.kind === 'genai-busy' ? 'Another LLM or VLM holds the Hailo device (HailoRT runs one at a time)' : 'The Hailo device is busy';
    return { ...error, sentence: `${lead}: ${said}` };
  }

  /**
   * The pre-run gate (core/device/runGate.ts) on this worker's scan: the verdict when the HEF may run
   * (the device HailoRT takes, HailoRT's warnings), else its refusal as the request's failure.
   */
  async gate(hef: string, read?: HefReport, onScan?: () => void, format: IoFormat = 'uint8'): Promise<GateAllowed> {
    const report = read ?? (await readHefFile(hef, { verifyResources: false }));
    const verdict = await gateBeforeRun(
      basename(hef) || '(no path)',
      report,
      () => {
        onScan?.();
        return this.scan();
      },
      format,
    );
    if (verdict.action === 'refuse') throw new DeviceFailure(verdict.error);
    return verdict;
  }

  async openModel(options: OpenOptions & { hef: string }, allowed?: GateAllowed): Promise<ModelInfo & { handle: number }> {
    const dev = (allowed ?? (await this.gate(options.hef, undefined, undefined, options.format))).device;
    let handle: number;
    try {
      handle = this.bridge.open(
        options.hef,
        options.format,
        options.batch,
        options.queue,
        options.groupId,
        options.timeoutMs,
        limit('deviceFrameBytes'),
        limit('deviceSlotBytes'),
      );
    } catch (err) {
      // The shim's own frame bound (hts_open), for a HEF whose frames the gate could not read.
      const frame = shimFrameRefusal(err);
      if (frame) {
        const said = `${frame.direction} frame (${frame.bytes.toLocaleString('en-US')} bytes${options.format === 'float32' ? ' as float32' : ''})`;
        throw new DeviceFailure({
          ...errorFromKind('hef-not-supported', said),
          sentence: limitMessage('deviceFrameBytes', `${basename(options.hef)}'s ${said}`),
        });
      }
      // 4.x shares a device between processes through hailort.service (the shim asks for it then).
      const throughService = /through hailort\.service/.test(err instanceof ShimError ? err.detail : '');
      if (err instanceof ShimError && err.status === HailoStatus.OUT_OF_PHYSICAL_DEVICES) {
        // 74 with a non-empty scan: another process holds the device (docs/research/hailort5-api.md#busy-devices-and-sharing).
        const count = this.scan().devices.length;
        throw new DeviceFailure(
          this.explainBusy(
            errorFromStatus(err.status, err.detail, { scanCount: count, during: 'open', throughService, system: this.system(dev) }, err.statusName),
            options.groupId,
          ),
        );
      }
      throw this.failure(err, 'open', 'open', { throughService, system: this.system(dev) });
    }
    let shim: ShimModel;
    try {
      shim = this.bridge.model(handle);
    } catch (err) {
      this.closeQuietly(handle);
      throw this.failure(err, 'model_json');
    }
    const tooLarge = openedFrameOverLimit(shim, options.format);
    if (tooLarge) {
      try {
        this.bridge.close(handle);
      } catch {
        // the refusal is the answer; a close that fails leaves the handle to the worker's exit
      }
      throw new DeviceFailure({
        ...errorFromKind('hef-not-supported', tooLarge),
        sentence: limitMessage('deviceFrameBytes', `${basename(options.hef)}'s ${tooLarge}`),
      });
    }
    const model: ModelInfo = {
      hef: options.hef,
      device: dev,
      format: options.format,
      batch: options.batch,
      asyncQueueSize: shim.queueSize,
      inputs: shim.inputs.map((s) => streamInfo(s, 'input')),
      outputs: shim.outputs.map((s) => streamInfo(s, 'output')),
      resources: shim.resources,
    };
    this.open.set(handle, { model, shim });
    return { ...model, handle };
  }

  infer(handle: number, inputs: Record<string, string>): { outputs: Record<string, string>; ms: number } {
    const entry = this.entry(handle);
    const frame = Buffer.concat(
      entry.model.inputs.map((s) => {
        const b64 = inputs[s.name];
        if (b64 === undefined) throw new DeviceFailure(errorFromKind('bad-input', `no data for input '${s.name}'`));
        return Buffer.from(b64, 'base64');
      }),
    );
    const out = Buffer.alloc(entry.shim.outputBytes);
    const t0 = performance.now();
    try {
      this.bridge.infer(handle, frame, out);
    } catch (err) {
      throw this.failure(err, 'infer');
    }
    const ms = performance.now() - t0;
    const outputs: Record<string, string> = {};
    for (const [name, bytes] of splitFrame(out, entry.model.outputs)) outputs[name] = Buffer.from(bytes).toString('base64');
    return { outputs, ms };
  }

  resource(handle: number, name: string): { base64: string } | null {
    this.entry(handle);
    try {
      const bytes = this.bridge.resource(handle, name);
      return bytes ? { base64: Buffer.from(bytes).toString('base64') } : null;
    } catch (err) {
      throw this.failure(err, 'resource');
    }
  }

  close(handle: number): null {
    this.entry(handle);
    this.open.delete(handle);
    try {
      this.bridge.close(handle);
    } catch (err) {
      throw this.failure(err, 'close');
    }
    return null;
  }

  /** Closes a handle whose open is being refused; a close that fails leaves it to the worker's exit. */
  private closeQuietly(handle: number): void {
    try {
      this.bridge.close(handle);
    } catch {
      // the refusal is the answer
    }
  }

  closeAll(): void {
    for (const handle of [...this.open.keys()]) {
      try {
        this.close(handle);
      } catch {
        // Best effort on shutdown: the process is exiting and the OS releases the device.
      }
    }
  }

  async run(options: RunOptions, progress: Progress): Promise<RunReport> {
    // Phases as the host shows them: the HEF (the gate's file rules), the scan (then its device rules), open.
    progress('hef');
    const allowed = await this.gate(options.hef, undefined, () => progress('scan'), options.format);
    progress('open');
    const opened = await this.openModel(options, allowed);
    const handle = opened.handle;
    try {
      const measured = this.measure(handle, options, progress);
      if (allowed.warnings.length) measured.notes = [...(measured.notes ?? []), ...allowed.warnings];
      return measured;
    } finally {
      if (this.open.has(handle)) this.close(handle);
    }
  }

  private measure(handle: number, options: RunOptions, progress: Progress): RunReport {
    const { model, shim } = this.entry(handle);
    let inputs;
    try {
      inputs = makeInputs(options.input, model.inputs);
    } catch (err) {
      if (err instanceof InputError) throw new DeviceFailure(errorFromKind('bad-input', err.message));
      throw err;
    }
    const [a, b] = inputs.frames;
    const outA = Buffer.alloc(shim.outputBytes);
    const outB = Buffer.alloc(shim.outputBytes);
    const outA2 = Buffer.alloc(shim.outputBytes);
    const run = (input: Uint8Array, out: Uint8Array) => {
      try {
        this.bridge.infer(handle, input, out);
      } catch (err) {
        throw this.failure(err, 'infer');
      }
    };

    progress('checks');
    run(a, outA);
    run(b, outB);
    run(a, outA2);
    const checks: CheckResult[] = [];
    const differ = !outA.equals(outB);
    checks.push({
      id: 'different-inputs',
      name: 'different inputs → different outputs',
      pass: differ,
      detail: differ ? 'the device computed on what it was sent' : 'IDENTICAL OUTPUT for different inputs: the device ignored its input',
    });
    const same = outA.equals(outA2);
    checks.push({
      id: 'same-input-twice',
      name: 'same input twice → bit-identical',
      pass: same,
      detail: same ? 'deterministic' : `DIFFERS: ${countDiff(outA, outA2)} of ${outA.length} bytes changed between two runs of the same input`,
    });
    // An undersized input (one byte short, as the published probe) must be refused by the shim
    // before HailoRT sees it — HailoRT itself would answer 6 and shut the model down.
    const short = a.subarray(0, Math.max(0, a.length - 1));
    const refusal = this.bridge.inferStatus(handle, short, Buffer.alloc(shim.outputBytes));
    // HailoRT would have shut the model down; the shim's refusal must leave it running.
    const stillWorks =
      refusal.status !== 0 &&
      (() => {
        try {
          this.bridge.infer(handle, a, Buffer.alloc(shim.outputBytes));
          return true;
        } catch {
          return false;
        }
      })();
    checks.push({
      id: 'undersized-refused',
      name: 'undersized input refused',
      pass: refusal.status === HailoStatus.INVALID_ARGUMENT && stillWorks,
      detail:
        refusal.status === 0
          ? 'ACCEPTED — the size check does not work'
          : `refused, status=${refusal.status} (${refusal.statusName})${stillWorks ? '; the model still runs afterwards' : '; the model no longer runs afterwards'}`,
    });

    const outputs = model.outputs.map((s) => {
      const bytes = splitFrame(outA, model.outputs).get(s.name)!;
      return outputStats(s, bytes);
    });

    progress('latency');
    const samples: number[] = [];
    const count = Math.max(1, Math.min(LATENCY_SAMPLES, options.frames));
    const scratch = Buffer.alloc(shim.outputBytes);
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      run(i % 2 === 0 ? a : b, scratch);
      samples.push(performance.now() - t0);
      if (i % 20 === 0) progress('latency', i, count);
    }
    const latency = {
      p50Ms: percentile(samples, 50),
      p99Ms: percentile(samples, 99),
      meanMs: samples.reduce((x, y) => x + y, 0) / samples.length,
      samples: samples.length,
      histogram: histogramOf(samples),
    };

    progress('throughput');
    const both = Buffer.concat([a, b]);
    const depths = options.queueDepths ?? depthsUpTo(shim.slots);
    const requested = options.queue > 0 ? Math.min(options.queue, shim.slots) : shim.slots;
    const fpsByQueue: FpsPoint[] = [];
    const frames = Math.max(1, options.frames);
    for (const depth of [...new Set([...depths.filter((d) => d >= 1 && d <= shim.slots), requested])].sort((x, y) => x - y)) {
      progress('throughput', depth, shim.slots);
      let ms: number;
      try {
        ms = this.bridge.runPipelined(handle, both, frames, depth);
      } catch (err) {
        throw this.failure(err, 'run_pipelined');
      }
      fpsByQueue.push({ queueDepth: depth, frames, fps: (frames * 1000) / ms, msPerFrame: ms / frames });
    }
    const fps = fpsByQueue.find((p) => p.queueDepth === requested)!;

    const report: RunReport = {
      hef: options.hef,
      runtime: this.runtime,
      model,
      input: inputs.description,
      outputs,
      checks,
      latency,
      fps,
      fpsByQueue,
      finishedAt: new Date().toISOString(),
    };
    if (options.keepTensors) {
      report.tensors = { inputs: {}, outputs: {} };
      for (const [name, bytes] of splitFrame(a, model.inputs)) report.tensors.inputs[name] = Buffer.from(bytes).toString('base64');
      for (const [name, bytes] of splitFrame(outA, model.outputs)) report.tensors.outputs[name] = Buffer.from(bytes).toString('base64');
    }
    return report;
  }

  private entry(handle: number): { model: ModelInfo; shim: ShimModel } {
    const e = this.open.get(handle);
    if (!e) throw new DeviceFailure(errorFromKind('hailort-error', `no open model with handle ${handle}`, HailoStatus.INVALID_ARGUMENT));
    return e;
  }

  private failure(err: unknown, what: string, during: 'open' | 'infer' | 'other' = 'other', context: StatusContext = {}): DeviceFailure {
    if (err instanceof DeviceFailure) return err;
    if (err instanceof LimitError) return limitFailure(err);
    if (err instanceof ShimError) {
      const e = errorFromStatus(err.status, err.detail || what, { during, system: this.system(), ...context }, err.statusName);
      if (err.status === HailoStatus.INVALID_ARGUMENT && /refused before HailoRT/.test(err.detail)) {
        return new DeviceFailure({ ...errorFromKind('wrong-input-size', err.detail, err.status, err.statusName) });
      }
      return new DeviceFailure(e);
    }
    return new DeviceFailure(errorFromKind('hailort-error', `${what}: ${(err as Error)?.message ?? String(err)}`));
  }
}

/**
 * Which frame of an opened model is over LIMITS.deviceFrameBytes, if any: the sizes HailoRT
 * computed from the HEF, in the format it was opened with, size every buffer the worker makes
 * (Buffer.alloc(outputBytes), the input frames of core/device/inputs.ts), so they are checked — by
 * the gate's own rule (core/device/frameBytes.ts), then HailoRT's totals, then an input's values
 * (the inputs are generated value by value: a shape disagreeing with its frame size) — before any
 * is made.
 */
function openedFrameOverLimit(shim: ShimModel, format: IoFormat): string | undefined {
  const streams = (list: ShimStream[]) =>
    list.map((s) => ({ name: s.name, frameSize: s.frameSize, type: formatTypeName(s.type), order: formatOrderName(s.order), shape: s.shape }));
  const byRule = frameOverLimit([{ inputs: streams(shim.inputs), outputs: streams(shim.outputs) }], format);
  if (byRule) return byRule;
  const max = limit('deviceFrameBytes');
  const over = (n: number) => !Number.isSafeInteger(n) || n < 0 || n > max;
  if (over(shim.inputBytes)) return `input frame (${shim.inputBytes.toLocaleString('en-US')} bytes)`;
  if (over(shim.outputBytes)) return `output frame (${shim.outputBytes.toLocaleString('en-US')} bytes)`;
  for (const s of shim.inputs) {
    const values = s.shape[0] * s.shape[1] * s.shape[2];
    if (over(values)) return `input '${s.name}' (${s.shape.join('x')} values)`;
  }
  return undefined;
}

function depthsUpTo(max: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= max; d *= 2) out.push(d);
  return out;
}

function countDiff(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

function streamInfo(s: ShimStream, direction: 'input' | 'output'): StreamInfo {
  return {
    name: s.name,
    direction,
    shape: s.shape,
    order: formatOrderName(s.order),
    type: formatTypeName(s.type),
    frameSize: s.frameSize,
    quant: s.quant.map(([zp, scale, limMin, limMax]) => ({ zp, scale, limMin, limMax })),
    isNms: s.nms,
  };
}

function deviceInfo(e: ShimScanEntry, system: SystemFacts): DeviceInfo {
  if (!e.ok) {
    return {
      id: e.id,
      architecture: 'unknown',
      architectureId: -1,
      firmware: '',
      serial: '',
      boardName: '',
      partNumber: '',
      productName: '',
      identifyError: errorFromStatus(e.status ?? 8, `${e.message ?? 'identify'} on ${e.id}`, { during: 'create-vdevice', system }, e.statusName),
    };
  }
  const fw = e.fw ?? [0, 0, 0];
  return {
    id: e.id,
    architecture: deviceArchitectureName(e.architecture ?? -1),
    architectureId: e.architecture ?? -1,
    firmware: `${fw[0]}.${fw[1]}.${fw[2]} (${e.release ? 'release' : 'debug'})`,
    serial: e.serial ?? '',
    boardName: e.board ?? '',
    partNumber: e.part ?? '',
    productName: e.product ?? '',
  };
}
