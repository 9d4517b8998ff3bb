// Types the sweep runner's modules share (run.ts, queue.ts, variant.ts, measure.ts, deviceMeasure.ts):
// here, not in one of them, so no module imports its own importer (ARCHITECTURE.md "No import cycles").
import type { CompilePool } from '../compile/pool';
import type { ProcessLauncher } from '../compile/process';
import type { Infer } from '../../core/accuracy/reference';
import type { OnnxModelCache } from '../../core/onnx/modelCache';
import type { ContextRow, SweepDocument, SweepRow } from '../../core/sweep/table';

export interface DeviceMeasure {
  fps: number;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
}

export interface SweepEnv {
  launch: ProcessLauncher;
  /** Host folder of the driver scripts (hailo_compile.py, hailo_emulate.py). */
  driverDir: string;
  /** `--user uid:gid` for bind-mounted runs. */
  user?: string;
  dockerPath: string;
  /** Machine-scoped extra `docker run` arguments (never from the plan). */
  extraRunArgs: string[];
  /** The pool to schedule on (the extension's, shared with single compiles); default: a new one. */
  pool?: CompilePool;
  signal?: AbortSignal;
  /** The float model's runner for the accuracy column (onnxruntime-node in its own process); absent: the column says why. */
  infer?: (onnx: string) => Infer | undefined;
  /** Why `infer` is absent (e.g. onnxruntime-node not found), for the accuracy cells. */
  inferMissing?: string;
  /** FPS/latency of a HEF on the attached device; absent: no device column. */
  measure?: (hef: string, frames: number, signal: AbortSignal) => Promise<DeviceMeasure | { unavailable: string }>;
  /** Remove the containers an earlier, killed run of this sweep left on its contexts (default: yes). */
  removeLeftovers?: boolean;
  /** Derive, check and key the variants, say which are finished; run nothing (no docker call). */
  dryRun?: boolean;
  /** The ONNX parse cache to use (figures and tests count its parses); default: one per sweep. */
  onnxCache?: OnnxModelCache;
}

export interface SweepCallbacks {
  /** A row changed (state, stage, result). */
  onRow?(row: SweepRow, doc: SweepDocument): void;
  /** One line of progress for a terminal: variant started, finished, failed; a context went away. */
  onProgress?(line: string): void;
  /** A docker context's state changed (up, down with its sentence). */
  onContext?(context: ContextRow, doc: SweepDocument): void;
  onOutput?(variant: string, text: string, stream: 'stdout' | 'stderr'): void;
}
