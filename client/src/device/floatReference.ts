// The float reference of a device run, for the results page: finds the ONNX, script and HAR
// beside the HEF (server/src/core/accuracy/modelFiles.ts), onnxruntime-node (setting or the
// extension's own copy), runs the float model in its own process on the run's first frame and
// compares (server/src/core/accuracy/reference.ts). No vscode import: settings come in as values,
// so the unit tests run it on a real model. Never throws: every outcome is a ReferenceSection.
import { basename, join } from 'node:path';
import { type RunReport, type TrustToken, compareWithReference, findModelFiles, locateOnnxRuntime, readReferenceModel, runOnnxInWorker } from '@hailo/api';
import { calibrationStatement, type ReferenceSection } from './runDocument';

export interface FloatReferenceOptions {
  /** `hailo.model.onnx` / `hailo.model.har` for the HEF's folder. */
  onnxSetting?: string;
  harSetting?: string;
  /** `hailo.onnxruntime.path` (machine-scoped). */
  onnxRuntimePath?: string;
  /** The extension's folder: dist/ortWorker.js, and a bundled onnxruntime-node if any. */
  extensionPath: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  log?: (message: string) => void;
}

export async function floatReference(trust: TrustToken, hefPath: string, report: RunReport, o: FloatReferenceOptions): Promise<ReferenceSection> {
  const inputs = report.input.text;
  const calibration = calibrationStatement();
  const skipped = (reason: string, fix?: 'set-onnx' | 'set-onnxruntime'): ReferenceSection => ({ status: 'skipped', reason, fix, inputs, calibration });
  if (!report.tensors) return skipped('The device run kept no tensors to compare.');
  const files = await findModelFiles(hefPath, { onnx: o.onnxSetting, har: o.harSetting });
  for (const p of files.problems) o.log?.(`float reference: ${p}`);
  if (!files.onnx) {
    return skipped(
      `No ONNX model was found for ${basename(hefPath)}: none is named ${basename(hefPath, '.hef')}.onnx beside it, no HAR beside it records one, and hailo.model.onnx is not set.`,
      'set-onnx',
    );
  }
  const ort = locateOnnxRuntime(o.onnxRuntimePath, [o.extensionPath]);
  if ('error' in ort) return skipped(ort.error, 'set-onnxruntime');
  try {
    const model = readReferenceModel(files);
    const comparison = await compareWithReference(
      {
        inputs: report.model.inputs,
        outputs: report.model.outputs,
        format: report.model.format,
        tensors: report.tensors,
        onnx: model.onnx,
        normalizations: model.normalizations,
        originalNames: model.originalNames,
        producers: model.producers,
      },
      async (feeds) => {
        const r = await runOnnxInWorker(
          trust,
          { ortPackage: ort.packageDir, onnx: files.onnx!.path, feeds },
          { workerPath: join(o.extensionPath, 'dist', 'ortWorker.js'), signal: o.signal, timeoutMs: o.timeoutMs },
        );
        o.log?.(`float reference: ${basename(files.onnx!.path)} ran in ${r.ms.toFixed(1)} ms (onnxruntime-node ${r.version})`);
        return r.outputs;
      },
    );
    comparison.warnings.unshift(...model.problems, ...files.problems);
    return {
      status: 'ok',
      onnx: basename(files.onnx.path),
      onnxFoundBy: files.onnx.foundBy,
      runtime: `${ort.version} (${ort.foundBy === 'setting' ? 'hailo.onnxruntime.path' : "the extension's own copy"})`,
      script: files.alls ? basename(files.alls) : undefined,
      comparison,
      inputs,
      calibration,
    };
  } catch (err) {
    return { status: 'failed', reason: err instanceof Error ? err.message : String(err), inputs, calibration };
  }
}
