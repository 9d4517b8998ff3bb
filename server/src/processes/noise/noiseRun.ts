// Layer noise analysis run for the user (`hailo-tools noise`, "Hailo: Analyze Layer Noise"): checks
// that the HAR is optimized (the analysis compares the quantized model with the float one: Hailo's
// diagnostic tool refuses a model that is not quantized, and every published call runs on the
// `_quantized.har`), measures the calibration set with the calibration core (its distribution is
// stated beside every figure), runs driver/hailo_noise.py in the DFC container, and writes what it
// found as `<net>.noise.json` beside the HAR in one rename (never half a file), so the HAR view,
// `hailo-tools har` and the `.alls` hover read it back.
import { FileRoots } from '../../core/common/confined';
import { basename, dirname, join, resolve } from 'node:path';
import { readHar, HarReadError } from '../../core/har/harReader';
import { NOISE_FORMAT, noiseSidecarPath, reportFromResults, type AnalyzeMode, type NoiseReport, type NoiseResults } from '../../core/har/noise';
import { inspectCalibrationSet, CalibReadError } from '../../core/calib/inspect';
import { limit } from '../../core/common/limits';
import type { DockerSettings } from '../compile/runner';
import { runDriverJob, type DriverJobEnv } from './driverJob';
import { parseFileJson } from '../../core/common/json';

export const NOISE_DRIVER = 'hailo_noise.py';
const MANIFEST = 'hailo-tools-noise.json';
/** States of an archive after optimize (netron's reader lists these; the parsed one is `hailo_model`). */
const OPTIMIZED_STATES = new Set(['quantized_model', 'compiled_model']);

export interface NoiseRequest {
  har: string;
  /** Calibration set (.npy NHWC, or .npz keyed by input layer). */
  calibration: string;
  dataCount?: number;
  batchSize?: number;
  mode?: AnalyzeMode;
  /** Also keep the analysed HAR as `<net>_noise.har` beside the HAR. */
  saveHar?: boolean;
  hwArch?: string;
}

export interface NoiseOutcome {
  status: 'ok' | 'refused' | 'docker-failed' | 'cancelled' | 'failed';
  /** One sentence when not ok. */
  message?: string;
  /** `<net>.noise.json`, when written. */
  resultsPath?: string;
  results?: NoiseResults;
  report?: NoiseReport;
  savedHar?: string;
  container?: { name: string; image: string; removed: boolean };
}

interface DriverManifest {
  status?: 'started' | 'ok' | 'crashed';
  dfcVersion?: string | null;
  seconds?: number;
  statistics?: Record<string, (number | null)[]>;
  kwargs?: Record<string, unknown>;
  error?: string;
  message?: string;
  savedHar?: string;
}

export async function analyzeNoise(req: NoiseRequest, settings: DockerSettings, env: DriverJobEnv): Promise<NoiseOutcome> {
  let har;
  try {
    har = await readHar(req.har);
  } catch (err) {
    return { status: 'refused', message: err instanceof HarReadError ? err.message : `${req.har}: ${(err as Error).message}` };
  }
  const state = typeof har.metadata?.state === 'string' ? har.metadata.state : undefined;
  if (!state || !OPTIMIZED_STATES.has(state)) {
    return {
      status: 'refused',
      message: `${basename(req.har)} is ${state ? `a ${state} archive` : 'an archive without a state'}: noise analysis compares the quantized model with the float one, so it needs the HAR optimize wrote (e.g. ${har.hn.name}_optimized.har; compile with a calibration set first).`,
    };
  }
  let calib;
  try {
    calib = await inspectCalibrationSet(req.calibration);
  } catch (err) {
    return {
      status: 'refused',
      message: `The calibration set ${req.calibration} cannot be read: ${err instanceof CalibReadError ? err.message : (err as Error).message}.`,
    };
  }
  if (req.dataCount !== undefined && req.dataCount > calib.count) {
    return {
      status: 'refused',
      message: `--data-count ${req.dataCount} is more than the ${calib.count} entries of ${basename(req.calibration)}; give at most ${calib.count}.`,
    };
  }
  const net = basename(req.har).replace(/\.har$/i, '');
  const savedName = `${net}_noise.har`;
  const run = await runDriverJob(
    {
      driverFile: NOISE_DRIVER,
      label: `noise-${net}`,
      model: req.har,
      folders: [dirname(req.har), dirname(req.calibration)],
      workDir: dirname(req.har),
      hwArch: req.hwArch,
      args: (at, out) => [
        '--har',
        at(0, basename(req.har)),
        '--data',
        at(1, basename(req.calibration)),
        '--out',
        out,
        ...(req.hwArch ? ['--hw-arch', req.hwArch] : []),
        ...(req.dataCount !== undefined ? ['--data-count', String(req.dataCount)] : []),
        ...(req.batchSize !== undefined ? ['--batch-size', String(req.batchSize)] : []),
        ...(req.mode ? ['--mode', req.mode] : []),
        ...(req.saveHar ? ['--save-har', savedName] : []),
      ],
    },
    settings,
    env,
  );
  const container = run.container;
  if (run.status !== 'finished') return { status: run.status, message: run.message, ...(container ? { container } : {}) };
  try {
    const manifestPath = join(run.staging!, MANIFEST);
    const staging = FileRoots.of([run.staging!]);
    const code = run.exit?.code;
    if (!staging.exists(manifestPath)) {
      const why =
        code === 3
          ? `the image has no Dataflow Compiler (hailo_sdk_client is not importable): choose a Hailo AI Software Suite / DFC image with hailo.dfc.image (CLI: --image)`
          : code === 2
            ? 'the driver could not read the HAR or the calibration set (its console says why)'
            : `the container exited with ${code ?? run.exit?.signal} before the analysis started`;
      return { status: 'failed', message: `Noise analysis did not run: ${why}.`, container };
    }
    let text: string;
    try {
      text = staging.readText(manifestPath, limit('noiseJsonBytes'));
    } catch {
      return { status: 'failed', message: `The driver's ${MANIFEST} is over ${limit('noiseJsonBytes')} bytes or unreadable; not read.`, container };
    }
    const m = parseFileJson(text, MANIFEST) as DriverManifest;
    if (m.status === 'crashed') {
      return { status: 'failed', message: `The DFC's noise analysis failed: ${m.error ?? 'Error'}: ${(m.message ?? '').split('\n')[0]}`, container };
    }
    if (m.status !== 'ok') return { status: 'failed', message: `The noise analysis stopped before it finished (exit ${code ?? run.exit?.signal}).`, container };
    const statistics: Record<string, number[]> = {};
    for (const [k, v] of Object.entries(m.statistics ?? {})) statistics[k] = (Array.isArray(v) ? v : []).filter((x): x is number => typeof x === 'number');
    const results: NoiseResults = {
      format: NOISE_FORMAT,
      har: basename(req.har),
      mode: req.mode ?? 'default',
      dataCount: req.dataCount ?? calib.count,
      ...(req.batchSize !== undefined ? { batchSize: req.batchSize } : {}),
      calibration: {
        file: basename(req.calibration),
        shape: calib.shape,
        dtype: calib.dtype,
        distribution: `${calib.distribution.text} (${calib.label}, ${calib.count} entries${calib.sampled ? ', sampled' : ''})`,
      },
      ...(m.dfcVersion ? { dfcVersion: m.dfcVersion } : {}),
      ...(m.seconds !== undefined ? { seconds: m.seconds } : {}),
      finishedAt: new Date().toISOString(),
      statistics,
    };
    const resultsPath = noiseSidecarPath(req.har);
    // Beside the HAR, never through a link there (a `<net>.noise.json -> ~/x` is replaced, not written through).
    const harFolder = FileRoots.of([dirname(resolve(req.har))]);
    harFolder.writeSync(resultsPath, JSON.stringify(results, null, 1) + '\n');
    let savedHar: string | undefined;
    if (req.saveHar && m.savedHar === savedName && staging.isFile(join(run.staging!, savedName))) {
      savedHar = join(dirname(req.har), savedName);
      FileRoots.of([dirname(resolve(req.har)), run.staging!]).rename(join(run.staging!, savedName), savedHar);
    }
    const types = new Map(har.hn.layers.map((l) => [l.fullName, l.type]));
    const report = reportFromResults(results, resultsPath, types);
    if (!Object.keys(statistics).length) {
      report.notes.push(
        'The DFC finished but its parameter statistics hold no layer_noise_analysis figures (this DFC version may store them elsewhere; `hailo profiler` on the saved HAR shows them).',
      );
    }
    return { status: 'ok', resultsPath, results, report, ...(savedHar ? { savedHar } : {}), container };
  } finally {
    run.cleanup();
  }
}

/** The calibration set beside a HAR: a *calib*.npy/.npz, else the only .npy. */
export function calibrationBeside(harPath: string): string | undefined {
  const files = FileRoots.near(harPath).listOrEmpty(dirname(harPath));
  const calib = files.filter((f) => /calib.*\.(npy|npz)$/i.test(f));
  if (calib.length === 1) return join(dirname(harPath), calib[0]);
  const npy = files.filter((f) => /\.npy$/i.test(f));
  return npy.length === 1 ? join(dirname(harPath), npy[0]) : undefined;
}
