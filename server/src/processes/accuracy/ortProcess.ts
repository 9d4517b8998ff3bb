// Host side of the float reference run: finds onnxruntime-node (it has native binaries for each
// platform, ~45–86 MB each, so the .vsix does not ship it — see README "Float reference"), starts
// dist/ortWorker.js with it in a separate process, and kills that process on Cancel or a timeout.
// Loading native code: demands a TrustToken, like the device worker.
import { fork } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve as resolvePath } from 'node:path';
import { isTrustToken, type TrustToken } from '../../core/common/trust';
import type { FloatTensor } from '../../core/accuracy/reference';

export interface OrtRequest {
  /** Absolute folder of the onnxruntime-node package. */
  ortPackage: string;
  onnx: string;
  feeds: Record<string, FloatTensor>;
  threads?: number;
  /**
   * External data of a model copy that does not sit beside its data (diverge's copy with extra
   * outputs): each `location` as the model names it and the file it is. The worker then loads the
   * model from memory with these files' bytes — onnxruntime refuses a path-loaded model's data
   * outside its folder ("External data path escapes model directory", absolute locations too).
   */
  externalData?: { location: string; path: string }[];
}

export type OrtResponse = { ok: true; version: string; ms: number; outputs: Record<string, FloatTensor & { type: string }> } | { ok: false; message: string };

export const ORT_PACKAGE = 'onnxruntime-node';

export type OrtLocation = { packageDir: string; version: string; foundBy: 'setting' | 'bundled' } | { error: string };

function packageAt(dir: string): { packageDir: string; version: string } | undefined {
  for (const candidate of [dir, join(dir, 'node_modules', ORT_PACKAGE)]) {
    const manifest = join(candidate, 'package.json');
    try {
      if (!statSync(manifest).isFile()) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === ORT_PACKAGE) return { packageDir: candidate, version: String(pkg.version ?? 'unknown') };
    } catch {
      /* not here: try the next candidate */
    }
  }
  return undefined;
}

/**
 * onnxruntime-node from the machine-scoped setting `hailo.onnxruntime.path` (a folder where
 * `npm install onnxruntime-node` ran, or the package folder itself), else a copy resolvable from
 * `searchFrom` (a development checkout has it as a devDependency). One sentence when neither.
 */
export function locateOnnxRuntime(settingPath: string | undefined, searchFrom: string[]): OrtLocation {
  const setting = settingPath?.trim();
  if (setting) {
    if (!isAbsolute(setting)) return { error: `hailo.onnxruntime.path must be an absolute folder; it is '${setting}'.` };
    const found = existsSync(setting) ? packageAt(setting) : undefined;
    if (!found)
      return { error: `hailo.onnxruntime.path is '${setting}', but no ${ORT_PACKAGE} is installed there: run "npm install ${ORT_PACKAGE}" in that folder.` };
    return { ...found, foundBy: 'setting' };
  }
  for (const from of searchFrom) {
    try {
      const manifest = require.resolve(`${ORT_PACKAGE}/package.json`, { paths: [from] });
      const found = packageAt(join(manifest, '..'));
      if (found) return { ...found, foundBy: 'bundled' };
    } catch {
      /* not resolvable from here */
    }
  }
  return {
    error: `The float reference needs ${ORT_PACKAGE}, which the extension does not ship (native binaries of 45–86 MB per platform): run "npm install ${ORT_PACKAGE}" in a folder of your choice and set hailo.onnxruntime.path to that folder.`,
  };
}

export interface RunOrtOptions {
  /** The bundled worker (default: ortWorker.js beside this bundle). */
  workerPath?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Runs the model once in a fresh worker process. Rejects with one sentence on any failure. */
export function runOnnxInWorker(trust: TrustToken, req: OrtRequest, options: RunOrtOptions = {}): Promise<OrtResponse & { ok: true }> {
  if (!isTrustToken(trust)) return Promise.reject(new Error('The float reference runs native code (onnxruntime) only in a trusted workspace.'));
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    let stderr = '';
    let settled = false;
    const child = fork(options.workerPath ?? join(__dirname, 'ortWorker.js'), [], {
      cwd: tmpdir(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const finish = (err: Error | undefined, value?: OrtResponse & { ok: true }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(value!);
    };
    const onAbort = () => finish(new Error('The float reference was cancelled.'));
    const timer = setTimeout(
      () => finish(new Error(`onnxruntime did not finish the float reference within ${Math.round(timeoutMs / 1000)} s; it was stopped.`)),
      timeoutMs,
    );
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort);
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 8192) stderr += d;
    });
    child.on('message', (msg: OrtResponse) => {
      if (msg.ok) finish(undefined, msg);
      else finish(new Error(`onnxruntime could not run the model: ${msg.message}`));
    });
    child.on('error', (err) => finish(new Error(`The float reference worker could not start: ${err.message}`)));
    child.on('exit', (code, signal) => {
      const last = stderr.trim().split('\n').pop();
      finish(
        new Error(`The float reference worker ${signal ? `was killed by ${signal}` : `exited with code ${code}`} before answering${last ? `: ${last}` : ''}.`),
      );
    });
    // The worker runs in another folder: a path the caller named relative to its own is resolved here.
    child.send({ ...req, onnx: resolvePath(req.onnx), ortPackage: resolvePath(req.ortPackage) });
  });
}
