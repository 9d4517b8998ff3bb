// What a compile started from one file needs from its folder: from a model, the model script and
// calibration set beside it; from a script, the model beside it. Pure (file names in, choices out):
// the command asks the user only for what this cannot decide, and remembers the answer per folder.
import { basename, extname, join } from 'node:path';

export interface FolderChoice {
  model?: string;
  modelScript?: string;
  /** A .npy/.npz path, or 'random' when the user chose random data. */
  calibration?: string;
}

const ext = (n: string) => extname(n).toLowerCase();
const stem = (n: string) => basename(n, extname(n));

/** The one file in `names` with extension `e` whose stem is `base`, else the only one with `e`. */
function beside(names: string[], base: string, exts: string[]): string | undefined {
  for (const e of exts) {
    const same = names.find((n) => ext(n) === e && stem(n) === base);
    if (same) return same;
  }
  for (const e of exts) {
    const all = names.filter((n) => ext(n) === e);
    if (all.length === 1) return all[0];
  }
  return undefined;
}

/** Calibration sets are named after the model (`net.npy`, `net_calib.npy`), `calib*.npy`, or are the only one. */
export function calibrationBeside(names: string[], base: string): string | undefined {
  const sets = names.filter((n) => ext(n) === '.npy' || ext(n) === '.npz');
  const lower = base.toLowerCase();
  return (
    sets.find((n) => stem(n).toLowerCase() === lower) ??
    sets.find((n) => stem(n).toLowerCase().startsWith(`${lower}_calib`) || stem(n).toLowerCase().startsWith(`${lower}-calib`)) ??
    (sets.filter((n) => /^calib/i.test(n)).length === 1 ? sets.find((n) => /^calib/i.test(n)) : undefined) ??
    (sets.length === 1 ? sets[0] : undefined)
  );
}

/**
 * What the folder offers for a compile started on `file` (.onnx, .har or .alls). `names` are the
 * folder's file names; results are full paths. A model is preferred as ONNX (the full flow), then
 * HAR; for a HAR named `<net>_optimized.har` or `<net>.har` the script `<net>.alls` is found too.
 */
export function companions(file: string, folder: string, names: string[]): FolderChoice {
  const at = (n: string | undefined) => (n ? join(folder, n) : undefined);
  const e = ext(file);
  const base = stem(file);
  if (e === '.alls') {
    const model = beside(names, base, ['.onnx', '.har']);
    const modelBase = model ? stem(model) : base;
    return { model: at(model), modelScript: file, calibration: at(calibrationBeside(names, modelBase) ?? calibrationBeside(names, base)) };
  }
  const net = base.replace(/_optimized$/, '');
  const script = names.find((n) => ext(n) === '.alls' && stem(n) === net) ?? names.find((n) => ext(n) === '.alls' && stem(n) === base);
  const scripts = names.filter((n) => ext(n) === '.alls');
  return { model: file, modelScript: at(script ?? (scripts.length === 1 ? scripts[0] : undefined)), calibration: at(calibrationBeside(names, net)) };
}
