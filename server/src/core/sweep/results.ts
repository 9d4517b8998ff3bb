// One variant's result as it is kept on disk (`<out>/<variant>/sweep-result.json`, written in one
// rename when the variant ends) and as the table shows it. `finished` marks a result that stands
// for its inputs: the compile ran to the DFC's own verdict (success, or a failure in parse,
// optimize or compile). Anything else — docker refused, the host went away, killed, cancelled —
// is recorded for the table but runs again next time. Pure apart from the three file functions.
import type { FileRoots } from '../common/confined';
import { dirname, join } from 'node:path';
import type { FailedStage, Outcome } from '../dfc/types';
import { parseFileJson } from '../common/json';

export const RESULT_FILE = 'sweep-result.json';
export const RESULT_VERSION = 1;

/** Where a variant stands. `reused`: a finished result with the same inputs key was found (not run again). */
export type VariantState = 'waiting' | 'running' | 'done' | 'reused' | 'failed' | 'invalid' | 'cancelled' | 'lost';

export interface AccuracyCell {
  /** The emulator context compared with the float model (e.g. quantized = SDK_QUANTIZED). */
  context: string;
  status: 'ok' | 'crashed' | 'unavailable';
  /** Worst output: ‖emulator − float‖₂ / ‖float‖₂. */
  relativeError: number | null;
  cosine: number | null;
  maxAbsError: number | null;
  /** How the N inputs were made, in words. */
  inputs: string;
  message?: string;
  /** Which settings it was measured with (a changed plan measures again, the compile is kept). */
  key: string;
}

export type DeviceCell =
  | { status: 'ok'; fps: number; latencyP50Ms: number | null; latencyP99Ms: number | null; key: string }
  | { status: 'unavailable'; message: string; key: string };

export interface VariantResult {
  version: number;
  /** SHA-256 of the inputs (inputsHash.ts). */
  key: string;
  id: string;
  label: string;
  values: Record<string, string>;
  finished: boolean;
  state: Exclude<VariantState, 'waiting' | 'running' | 'reused'>;
  /** One sentence for everything but a clean success. */
  message: string | null;
  outcome: Outcome | null;
  failedStage: FailedStage;
  stages: { parse: number | null; optimize: number | null; compile: number | null };
  /** Wall time of the compile (container start to end), seconds. */
  seconds: number | null;
  /** The docker context it ran on ('' = the current one). */
  dockerContext: string | null;
  image: string | null;
  hwArch: string;
  dfcVersion: string | null;
  /** Contexts of the compiled network and utilisation (%), from the DFC's summary. */
  contexts: number | null;
  utilization: { control: number | null; compute: number | null; memory: number | null };
  hefBytes: number | null;
  /** llama.cpp's mtmd contract, when the HEF carries a hailo-config.json (else null). */
  mtmd: { pass: boolean; failed: string[] } | null;
  accuracy: AccuracyCell | null;
  device: DeviceCell | null;
  /** Files of the variant (absolute): its folder, derived script, console log, outputs. */
  files: { folder: string; alls: string | null; log: string | null; har: string | null; optimizedHar: string | null; hef: string | null };
  /** The script's findings this variant's settings brought (warnings, infos), and notes from the run. */
  notes: string[];
  startedAt: string | null;
  endedAt: string | null;
}

/** A result file is small; one past this is not ours. */
const RESULT_MAX_BYTES = 4 << 20;

export function readResult(roots: FileRoots, folder: string): VariantResult | undefined {
  try {
    const r = parseFileJson(roots.readText(join(folder, RESULT_FILE), RESULT_MAX_BYTES), RESULT_FILE) as VariantResult;
    return r && r.version === RESULT_VERSION && typeof r.key === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the result in one rename: a crash leaves the old result or the new one, never half. */
export function writeResult(roots: FileRoots, folder: string, r: VariantResult): void {
  roots.mkdir(folder);
  roots.writeSync(join(folder, RESULT_FILE), JSON.stringify(r, null, 1) + '\n');
}

/**
 * The finished results under `out`, by inputs key (a variant renamed or moved is still found). A
 * record whose files are in another folder (a copied folder, or files named outside its own) or that is not finished is not one.
 */
export function finishedResults(roots: FileRoots, out: string): Map<string, VariantResult> {
  const found = new Map<string, VariantResult>();
  for (const n of roots.listOrEmpty(out)) {
    if (n.startsWith('.')) continue;
    const folder = join(out, n);
    if (!roots.exists(join(folder, RESULT_FILE))) continue;
    const r = readResult(roots, folder);
    // every file of it in that folder: a cloned record naming ~/.ssh/… is not one the view may open
    if (r?.finished && r.files.folder === folder && Object.entries(r.files).every(([k, f]) => k === 'folder' || f === null || dirname(f) === folder))
      found.set(r.key, r);
  }
  return found;
}
