// The float reference's worker process (bundled to dist/ortWorker.js): loads onnxruntime-node from
// the folder the host names, runs one ONNX model once on the feeds it is sent, answers, exits.
// It runs in its own process so native code (onnxruntime's, on a model from the workspace) cannot
// take down the extension host, and the host can kill it on Cancel or a timeout.
import { FileRoots } from '../../core/common/confined';
import type { OrtRequest, OrtResponse } from './ortProcess';

/** Below 2 GiB: the most one read of ours takes (common/fileAccess.ts); a larger data file is one sentence. */
const EXTERNAL_DATA_MAX_BYTES = 2 ** 31 - 1;

interface OrtModule {
  version?: string;
  env?: { versions?: { common?: string } };
  Tensor: new (type: 'float32', data: Float32Array, dims: readonly number[]) => unknown;
  InferenceSession: {
    create(
      model: string | Uint8Array,
      options?: Record<string, unknown>,
    ): Promise<{
      inputNames: readonly string[];
      outputNames: readonly string[];
      run(feeds: Record<string, unknown>): Promise<Record<string, { dims: readonly number[]; data: unknown; type: string }>>;
      release?(): Promise<void>;
    }>;
  };
}

function reply(msg: OrtResponse): Promise<void> {
  return new Promise((resolve) => process.send!(msg, () => resolve()));
}

async function handle(req: OrtRequest): Promise<OrtResponse> {
  // The package folder is named by the host (a machine-scoped setting or the extension's own copy).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ort = require(req.ortPackage) as OrtModule;
  const version = (() => {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return String((require(`${req.ortPackage}/package.json`) as { version?: string }).version ?? 'unknown');
    } catch {
      return 'unknown';
    }
  })();
  const options = { graphOptimizationLevel: 'all', intraOpNumThreads: req.threads ?? 0 };
  const session = req.externalData?.length
    ? await ort.InferenceSession.create(FileRoots.named(req.onnx).readSync(req.onnx, EXTERNAL_DATA_MAX_BYTES), {
        ...options,
        // External data paths were confined to the model's folder by the ONNX reader (onnx/reader.ts checkLocation).
        externalData: req.externalData.map((e) => ({ path: e.location, data: FileRoots.named(e.path).readSync(e.path, EXTERNAL_DATA_MAX_BYTES) })),
      })
    : await ort.InferenceSession.create(req.onnx, options);
  const feeds: Record<string, unknown> = {};
  for (const [name, t] of Object.entries(req.feeds)) feeds[name] = new ort.Tensor('float32', t.data, t.dims);
  const started = process.hrtime.bigint();
  const out = await session.run(feeds);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const outputs: OrtResponse & { ok: true } = { ok: true, version, ms, outputs: {} };
  for (const [name, t] of Object.entries(out)) {
    if (t.type !== 'float32' || !(t.data instanceof Float32Array)) {
      outputs.outputs[name] = { dims: [...t.dims], data: new Float32Array(0), type: t.type };
      continue;
    }
    outputs.outputs[name] = { dims: [...t.dims], data: t.data, type: t.type };
  }
  await session.release?.();
  return outputs;
}

process.on('message', (req: OrtRequest) => {
  handle(req)
    .then(reply, (err: unknown) => reply({ ok: false, message: err instanceof Error ? err.message : String(err) }))
    .finally(() => process.exit(0));
});
