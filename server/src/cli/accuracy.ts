// `hailo-tools accuracy [--json] --onnx MODEL --har OPTIMIZED.har [--alls SCRIPT] [--calib SET]
// [--inputs X.npy | --count N --seed S] [--contexts LIST] [--docker PATH] [--image IMAGE]
// [--threshold R]` — one table of every oracle on the same inputs: float ONNX (onnxruntime-node in
// its own process), each DFC emulator context (in the DFC container) and, with a device, HailoRT.
// Exit 0 nothing flagged, 1 a disagreement or a crashed oracle, 2 usage or unreadable input.
import { FileRoots } from '../core/common/confined';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { compareOracles, CompareError } from '../processes/accuracy/compare';
import { EMULATOR_CONTEXTS, runEmulator, type EmulatorContext } from '../processes/accuracy/emulator';
import { accuracyText } from '../core/accuracy/oracles';
import { deviceOutputs } from '../processes/accuracy/deviceOracle';
import { DeviceClient } from '../processes/device/client';
import { locateOnnxRuntime, runOnnxInWorker } from '../processes/accuracy/ortProcess';
import { hostUser, trustedLauncher } from '../processes/compile/launcher';
import { commandLineTrust } from '../core/common/trust';
import { defaultDriverDir } from './compile';

const USAGE = `usage: hailo-tools accuracy [--json] --onnx MODEL --har OPTIMIZED.har [--alls SCRIPT] [--calib SET.npy]
                            [--inputs X.npy | --count N --seed S] [--contexts native,fp_optimized,quantized,bit_exact|none]
                            [--docker PATH] [--context NAME] [--image IMAGE] [--threshold R]
                            [--hef HEF [--hailort DIR] [--group-id ID]]

One table per output of every oracle on the same inputs: the float ONNX (onnxruntime-node), each
DFC emulator context in the DFC container (driver/hailo_emulate.py), with max|err|, relative error,
cosine and correlation against float and between every pair; disagreements above the threshold and
crashed contexts are flagged; the calibration set's distribution is stated beside every quantised
figure.

${helpTable([
  ['--onnx FILE', 'the float model'],
  ['--har FILE', 'the optimized HAR (the emulator runs it; its input/output layers pair the tensors)'],
  ['--alls FILE', 'the model script (its normalization is applied before the float model)'],
  ['--calib FILE', 'the calibration set (its distribution is stated; seeded inputs are drawn like it)'],
  ['--inputs FILE', '(N, H, W, C) inputs in the scale the device gets; default: seeded draws'],
  ['--count N', 'seeded inputs (default 8)'],
  ['--seed S', 'their seed (default 1171)'],
  ['--contexts LIST', "emulator contexts (default all four; 'none' skips the container)"],
  ['--threshold R', 'relative error above which a pair is flagged (default 0.1)'],
  ['--hef FILE', 'also run the inputs on the device (HailoRT through the device worker, float32 I/O)'],
  ['--hailort DIR', 'where HailoRT is installed (as for hailo-tools run)'],
  ['--group-id ID', 'VDevice group id (default UNIQUE)'],
  ['--docker PATH', 'as for hailo-tools compile'],
  ['--context NAME', 'as for hailo-tools compile'],
  ['--image IMAGE', 'as for hailo-tools compile'],
])}

Exit 0 nothing flagged, 1 flags, 2 usage or unreadable input.
`;

const VALUE = new Set([
  '--onnx',
  '--har',
  '--alls',
  '--calib',
  '--inputs',
  '--count',
  '--seed',
  '--contexts',
  '--docker',
  '--context',
  '--image',
  '--threshold',
  '--hef',
  '--hailort',
  '--group-id',
]);

export async function runAccuracy(args: string[], io: CliIO, deps: { driverDir?: string; ortWorker?: string; device?: DeviceClient } = {}): Promise<number> {
  const o = new Map<string, string>();
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return EXIT_OK;
    } else if (VALUE.has(a)) {
      const v = args[++i];
      if (v === undefined) return usage(io, `${a} needs a value`);
      o.set(a, v);
    } else return usage(io, `unexpected argument '${a}'`);
  }
  if (!o.get('--onnx') || !o.get('--har')) return usage(io, '--onnx and --har are required');
  const int = (k: string, d: number) => {
    const v = o.get(k);
    if (v === undefined) return d;
    const n = Number(v);
    return Number.isInteger(n) && n > 0 ? n : NaN;
  };
  const count = int('--count', 8);
  const seed = int('--seed', 1171);
  const threshold = o.has('--threshold') ? Number(o.get('--threshold')) : undefined;
  if (Number.isNaN(count) || Number.isNaN(seed) || (threshold !== undefined && !(threshold > 0)))
    return usage(io, '--count and --seed take positive integers, --threshold a positive number');
  const ctxArg = o.get('--contexts') ?? EMULATOR_CONTEXTS.join(',');
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
  const onnx = o.get('--onnx')!;
  const temp = FileRoots.makeTemp('hailo-accuracy-');
  const work = temp.folders[0];
  const controller = new AbortController();
  const hef = o.get('--hef');
  const device = hef
    ? (deps.device ?? new DeviceClient({ trust, hailortRoot: o.get('--hailort'), onEvent: (e) => e.type === 'build' && io.err(`hailo-tools: ${e.message}\n`) }))
    : undefined;
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    const doc = await compareOracles(
      {
        onnx,
        har: o.get('--har')!,
        alls: o.get('--alls'),
        calib: o.get('--calib'),
        inputsNpy: o.get('--inputs'),
        count: o.has('--count') || !o.has('--inputs') ? count : undefined,
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
        emulate: (r) =>
          runEmulator(
            r,
            { dockerPath: o.get('--docker') || 'docker', context: o.get('--context'), image: o.get('--image'), gpus: 'auto', extraRunArgs: [] },
            {
              launch: trustedLauncher(trust, { newProcessGroup: true }),
              driverDir: deps.driverDir ?? defaultDriverDir(),
              user: hostUser(),
              signal: controller.signal,
            },
          ),
        device: device && hef ? (inputs) => deviceOutputs(device, resolve(hef), inputs, { groupId: o.get('--group-id') }) : undefined,
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

function usage(io: CliIO, message: string): number {
  io.err(`hailo-tools accuracy: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}
