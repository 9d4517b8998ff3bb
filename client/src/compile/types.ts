// Types the compile command's modules share (command.ts, task.ts): here, not in one of them, so no
// module imports its own importer (ARCHITECTURE.md "No import cycles").

/** The command's optional second argument (tasks, quick fixes, tests): anything given is not asked. */
export interface CompileRequest {
  model?: string;
  modelScript?: string;
  /** A .npy/.npz, or 'random'. */
  calibration?: string;
  hwArch?: string;
  startNodes?: string[];
  endNodes?: string[];
  outDir?: string;
  hailoConfig?: string;
}
