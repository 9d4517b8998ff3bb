// `hailo-tools sweep [--json] [--dry-run] [--docker PATH] [--docker-arg ARG]… [--hailort DIR] PLAN.sweep.json`
// Runs every variant of a sweep plan (server/src/processes/sweep) over the plan's docker contexts, streams one
// progress line per event on stderr, and prints the table (or, with --json, the document
// `<out>/sweep.json` also holds). Variants finished earlier with the same inputs are not run again.
// Exit 0: every variant has its result (a DFC failure is a result); 1: some did not finish (docker
// refused, a host went away, a script the .alls rules refuse); 2: usage or an unreadable plan;
// 130: interrupted — running containers are removed first, finished variants are kept.
import { hookSignals, stopOnce } from './interrupt';
import { commandLineTrust } from '../core/common/trust';
import { hostUser, trustedLauncher } from '../processes/compile/launcher';
import { locateOnnxRuntime, runOnnxInWorker } from '../processes/accuracy/ortProcess';
import { DeviceClient } from '../processes/device/client';
import { readPlan, PlanError } from '../core/sweep/plan';
import { runSweep, type SweepEnv } from '../processes/sweep/run';
import { allFinished, sweepText } from '../core/sweep/table';
import { measureOnDevice } from '../processes/sweep/deviceMeasure';
import { EXIT_INTERRUPTED } from './compile';
import { defaultDriverDir } from './dfcJob';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';

const OPTIONS = {
  json: { type: 'boolean', help: 'print the table as one JSON document' },
  'dry-run': { type: 'boolean', help: "list the variants, their derived scripts' findings and what is finished; run nothing" },
  docker: { type: 'string', default: 'docker', arg: 'PATH', help: 'the docker executable (default: docker)' },
  'docker-arg': { type: 'string', multiple: true, arg: 'ARG', help: "one extra 'docker run' argument for every compile (repeat for several)" },
  hailort: { type: 'string', arg: 'DIR', help: 'HailoRT install prefix, for the plan\'s "device" column' },
} as const;

const USAGE = `usage: hailo-tools sweep [--json] [--dry-run] [--docker PATH] [--docker-arg ARG]... [--hailort DIR] PLAN.sweep.json

Compiles every variant of a sweep plan — the product of its axes (any .alls setting, calibration
sets, DFC images, architectures) — across the plan's docker contexts, as many at once on each as
its width says, each in its own folder under the plan's "out" with its derived .alls. A variant
whose inputs (model, script, calibration, image, architecture) already have a finished result is
not run again, so an interrupted sweep resumes. Progress goes to stderr; the table (outcome and
failed stage, stage times, context, utilisation, HEF size, mtmd contract, accuracy against the
float model, FPS/latency with a device) to stdout; <out>/sweep.json and <out>/sweep.csv hold it too.
${helpTable(optionRows(OPTIONS))}
Exit: 0 every variant has its result, 1 some did not finish, 2 usage or an unreadable plan,
130 interrupted (running containers are removed first; finished variants are kept).
`;

export interface SweepCliDeps {
  driverDir?: string;
  ortWorker?: string;
  onInterrupt?: (stop: () => void) => () => void;
  device?: Pick<DeviceClient, 'scan' | 'run'>;
}

export async function runSweepCommand(args: string[], io: CliIO, deps: SweepCliDeps = {}): Promise<number> {
  const parsed = parseCommand('sweep', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { json, 'dry-run': dryRun, docker, 'docker-arg': dockerArgs, hailort } = parsed.values;
  const files = parsed.positionals;
  if (files.length !== 1) return usageError(io, 'sweep', USAGE, `expected one PLAN (a .sweep.json file), got ${files.length}`);
  let plan;
  try {
    plan = readPlan(files[0]);
  } catch (err) {
    if (!(err instanceof PlanError)) throw err;
    if (json) io.out(JSON.stringify({ error: err.message }, null, 2) + '\n');
    else io.err(`hailo-tools sweep: ${err.message}\n`);
    return EXIT_USAGE;
  }
  const trust = commandLineTrust('sweep');
  const controller = new AbortController();
  const stop = stopOnce(
    controller,
    (line) => io.err(line),
    'hailo-tools sweep: interrupted: stopping the running compiles and removing their containers …\n',
    'hailo-tools sweep: still stopping; running containers are removed before this exits\n',
  );
  const unhook = (deps.onInterrupt ?? hookSignals)(stop);
  const ort = plan.accuracy ? locateOnnxRuntime(undefined, [__dirname, process.cwd()]) : undefined;
  let device: Pick<DeviceClient, 'scan' | 'run'> | undefined = deps.device;
  let owned: DeviceClient | undefined;
  const env: SweepEnv = {
    launch: trustedLauncher(trust, { newProcessGroup: true }),
    driverDir: deps.driverDir ?? defaultDriverDir(),
    user: hostUser(),
    dockerPath: docker,
    extraRunArgs: dockerArgs,
    signal: controller.signal,
    dryRun,
    infer:
      ort && 'packageDir' in ort
        ? (onnx) => async (feeds) =>
            (await runOnnxInWorker(trust, { ortPackage: ort.packageDir, onnx, feeds }, { signal: controller.signal, workerPath: deps.ortWorker })).outputs
        : undefined,
    inferMissing: ort && 'error' in ort ? ort.error : undefined,
    measure: plan.device
      ? (hef, frames) => {
          device ??= owned = new DeviceClient({ trust, hailortRoot: hailort, onEvent: (e) => e.type === 'build' && io.err(`hailo-tools: ${e.message}\n`) });
          return measureOnDevice(device, hef, frames);
        }
      : undefined,
  };
  try {
    const doc = await runSweep(plan, env, { onProgress: (line) => io.err(`hailo-tools sweep: ${line}\n`) });
    io.out(json ? JSON.stringify(doc, null, 2) + '\n' : sweepText(doc));
    if (controller.signal.aborted) return EXIT_INTERRUPTED;
    if (dryRun) return EXIT_OK;
    return allFinished(doc) ? EXIT_OK : EXIT_FINDINGS;
  } finally {
    unhook();
    owned?.dispose();
  }
}
