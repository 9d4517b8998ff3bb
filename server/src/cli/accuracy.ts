// `hailo-tools accuracy [--json] --onnx MODEL --har OPTIMIZED.har [--alls SCRIPT] [--calib SET]
// [--inputs X.npy | --count N --seed S] [--contexts LIST] [--docker PATH] [--image IMAGE]
// [--threshold R]` — one table of every oracle on the same inputs: float ONNX (onnxruntime-node in
// its own process), each DFC emulator context (in the DFC container) and, with a device, HailoRT.
// Exit 0 nothing flagged, 1 a disagreement or a crashed oracle, 2 usage or unreadable input.
import { FileRoots } from '../core/common/confined';
import { resolve } from 'node:path';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { compareOracles, CompareError } from '../processes/accuracy/compare';
import { EMULATOR_CONTEXTS, runEmulator, type EmulatorContext } from '../processes/accuracy/emulator';
import { accuracyText } from '../core/accuracy/oracles';
import { deviceOutputs } from '../processes/accuracy/deviceOracle';
import { DeviceClient } from '../processes/device/client';
import { locateOnnxRuntime, runOnnxInWorker } from '../processes/accuracy/ortProcess';
import { commandLineTrust } from '../core/common/trust';
import { optionRows, parseCommand, usageError } from './args';
import { DOCKER_OPTIONS, dockerSettings, driverJobEnv } from './dfcJob';

const OPTIONS = {
  onnx: { type: 'string', arg: 'FILE', help: 'the float model' },
  har: { type: 'string', arg: 'FILE', help: 'the optimized HAR (the emulator runs it; its input/output layers pair the tensors)' },
  alls: { type: 'string', arg: 'FILE', help: 'the model script (its normalization is applied before the float model)' },
  calib: { type: 'string', arg: 'FILE', help: 'the calibration set (its distribution is stated; seeded inputs are drawn like it)' },
  inputs: { type: 'string', arg: 'FILE', help: '(N, H, W, C) inputs in the scale the device gets; default: seeded draws' },
  count: { type: 'string', arg: 'N', help: 'seeded inputs (default 8)' },
  seed: { type: 'string', arg: 'S', help: 'their seed (default 1171)' },
  contexts: { type: 'string', arg: 'LIST', help: "emulator contexts (default all four; 'none' skips the container)" },
  threshold: { type: 'string', arg: 'R', help: 'relative error above which a pair is flagged (default 0.1)' },
  hef: { type: 'string', arg: 'FILE', help: 'also run the inputs on the device (HailoRT through the device worker, float32 I/O)' },
  hailort: { type: 'string', arg: 'DIR', help: 'where HailoRT is installed (as for hailo-tools run)' },
  'group-id': { type: 'string', arg: 'ID', help: 'VDevice group id (default UNIQUE)' },
  docker: DOCKER_OPTIONS.docker,
  context: DOCKER_OPTIONS.context,
  image: DOCKER_OPTIONS.image,
  // In the usage line only.
  json: { type: 'boolean' },
} as const;

const USAGE = `usage: hailo-tools accuracy [--json] --onnx MODEL --har OPTIMIZED.har [--alls SCRIPT] [--calib SET.npy]
                            [--inputs X.npy | --count N --seed S] [--contexts native,fp_optimized,quantized,bit_exact|none]
                            [--docker PATH] [--context NAME] [--image IMAGE] [--threshold R]
                            [--hef HEF [--hailort DIR] [--group-id ID]]

One table per output of every oracle on the same inputs: the float ONNX (onnxruntime-node), each
DFC emulator context in the DFC container (driver/hailo_emulate.py), with max|err|, relative error,
cosine and correlation against float and between every pair; disagreements above the threshold and
crashed contexts are flagged; the calibration set's distribution is stated beside every quantised
figure.

${helpTable(optionRows(OPTIONS))}

Exit 0 nothing flagged, 1 flags, 2 usage or unreadable input.
`;

export async function runAccuracy(args: string[], io: CliIO, deps: { driverDir?: string; ortWorker?: string; device?: DeviceClient } = {}): Promise<number> {
  const parsed = parseCommand('accuracy', USAGE, OPTIONS, args, io, { positionals: false });
  if (typeof parsed === 'number') return parsed;
  const o = parsed.values;
  const json = o.json;
  if (!o.onnx || !o.har) return usage(io, '--onnx and --har are required');
  const har = o.har;
  const int = (v: string | undefined, d: number) => {
    if (v === undefined) return d;
    const n = Number(v);
    return Number.isInteger(n) && n > 0 ? n : NaN;
  };
  const count = int(o.count, 8);
  const seed = int(o.seed, 1171);
  const threshold = o.threshold !== undefined ? Number(o.threshold) : undefined;
  if (Number.isNaN(count) || Number.isNaN(seed) || (threshold !== undefined && !(threshold > 0)))
    return usage(io, '--count and --seed take positive integers, --threshold a positive number');
  const ctxArg = o.contexts ?? EMULATOR_CONTEXTS.join(',');
  const contexts =
    ctxArg === 'none'
      ? []
      : ctxArg
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const bad = contexts.filter((c) => !(EMULATOR_CONTEXTS as readonly string[]).includes(c));
  if (bad.length) return usage(io, `unknown context${bad.length > 1 ? 's' : ''} ${bad.join(', ')} (known: ${EMULATOR_CONTEXTS.join(', ')})`);

  const trust = commandLineTrust('accuracy');
  const ort = locateOnnxRuntime(undefined, [__dirname, process.cwd()]);
  const onnx = o.onnx;
  const settings = dockerSettings(o, 'auto');
  if ('error' in settings) return usage(io, settings.error);
  const temp = FileRoots.makeTemp('hailo-accuracy-');
  const work = temp.folders[0];
  const controller = new AbortController();
  const hef = o.hef;
  const device = hef
    ? (deps.device ?? new DeviceClient({ trust, hailortRoot: o.hailort, onEvent: (e) => e.type === 'build' && io.err(`hailo-tools: ${e.message}\n`) }))
    : undefined;
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    const doc = await compareOracles(
      {
        onnx,
        har,
        alls: o.alls,
        calib: o.calib,
        inputsNpy: o.inputs,
        count: o.count !== undefined || o.inputs === undefined ? count : undefined,
        seed,
        contexts: contexts as EmulatorContext[],
        workDir: work,
        threshold,
      },
      {
        infer:
          'packageDir' in ort
            ? async (feeds) =>
                (await runOnnxInWorker(trust, { ortPackage: ort.packageDir, onnx, feeds }, { signal: controller.signal, workerPath: deps.ortWorker })).outputs
            : undefined,
        emulate: (r) => runEmulator(r, settings, driverJobEnv(trust, deps.driverDir, controller.signal)),
        device: device && hef ? (inputs) => deviceOutputs(device, resolve(hef), inputs, { groupId: o['group-id'] }) : undefined,
      },
    );
    if (!('packageDir' in ort)) io.err(`hailo-tools accuracy: ${ort.error}\n`);
    io.out(json ? JSON.stringify(doc) + '\n' : accuracyText(doc));
    return doc.flags.length ? EXIT_FINDINGS : EXIT_OK;
  } catch (err) {
    const m = err instanceof CompareError ? err.message : `${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`;
    io.err(`hailo-tools accuracy: ${m}\n`);
    return EXIT_USAGE;
  } finally {
    process.removeListener('SIGINT', stop);
    if (device && device !== deps.device) device.dispose();
    temp.removeRoot();
  }
}

function usage(io: CliIO, sentence: string): number {
  return usageError(io, 'accuracy', USAGE, sentence);
}
