// The CalibrationProvider behind `ServiceContext.calibration()` for `.alls` scripts: finds the
// calibration set beside the script (`hailo.model.calibrationSet`, else `<script>.npy|.npz`, a
// `<script>…calib…` file, the only file with "calib" in its name, or the only .npy/.npz), the
// model input from the HAR beside it, and measures the set once per file version (sampled past
// 256 MiB, so a hover never waits for a multi-GB read). The script's own facts are applied by the
// service on every edit (`reportOf`), without reading the file again.
import { FileRoots } from '../core/common/confined';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { localPathOf } from './uri';
import { findCalibrationSetBeside, harInputs } from '../core/calib/context';
import { readCalibrationSet, type CalibArray } from '../core/calib/inspect';
import { findHarBeside } from '../core/har/modelResolver';
import type { CalibrationInfo, CalibrationProvider, ServerHost } from './service';

export function createCalibrationProvider(host: Pick<ServerHost, 'log'>): CalibrationProvider {
  const cache = new Map<string, { key: string; result: Promise<CalibArray | { error: string }> }>();

  return async (uri, settings) => {
    const scriptPath = localPathOf(uri);
    if (!scriptPath) return undefined;
    const dir = dirname(scriptPath);
    const setting = settings.model.calibrationSet || undefined;
    const path = setting ? (isAbsolute(setting) ? setting : resolve(dir, setting)) : findCalibrationSetBeside(scriptPath);
    if (!path) return undefined;
    const st = FileRoots.named(path).stamp(path);
    if (!st)
      return {
        path,
        name: relative(dir, path) || basename(path),
        error: `${setting ? 'hailo.model.calibrationSet names' : 'The calibration set'} ${path}, which is not a readable file.`,
      };
    const har = settings.model.har ? (isAbsolute(settings.model.har) ? settings.model.har : resolve(dir, settings.model.har)) : findHarBeside(scriptPath);
    const key = `${st}|${har ? (FileRoots.named(har).stamp(har) ?? '') : ''}`;
    let hit = cache.get(path);
    if (!hit || hit.key !== key) {
      const result = (async () => {
        try {
          const inputs = har ? (await harInputs(har)).inputs : [];
          return await readCalibrationSet(path, { inputs });
        } catch (err) {
          host.log(`calibration set ${path}: ${(err as Error).message}`);
          return { error: (err as Error).message };
        }
      })();
      hit = { key, result };
      cache.set(path, hit);
      while (cache.size > 8) cache.delete(cache.keys().next().value as string);
    }
    const r = await hit.result;
    const info: CalibrationInfo = { path, name: relative(dir, path) || basename(path) };
    if ('error' in r) info.error = r.error;
    else info.array = r;
    return info;
  };
}
