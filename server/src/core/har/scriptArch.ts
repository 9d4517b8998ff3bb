// Which architecture a `.alls` script is checked for, decided in one place for the language server
// and `hailo-tools check` (like modelResolver.ts for its model). The decision is the pure
// common/archInference.ts; this module gathers its facts: the HEF beside the script (picked as the
// HAR is: same basename, else one starting with it, else the only one), whose header is
// read once per file version through the HEF core (regular files only, never outside the script's
// folder), and the `hw_arch` of the HAR the model resolver already read.
import { FileRoots } from '../common/confined';
import { basename, dirname, sep } from 'node:path';
import { inferArch, type ArchInference } from '../common/archInference';
import type { ModelLayerIndex } from '../common/modelLayers';
import { readHefHwArch } from '../hef/hwArch';
import { withFileSource } from '../hef/source';
import { findBeside } from './modelResolver';

type HefArch = { id: number } | { error: string };

/** A path inside `dir` whose real location is outside it (a symlink out of the folder). */
function leavesFolder(path: string, dir: string): boolean {
  try {
    FileRoots.of([dir]).resolve(path);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === 'outside'; // missing: the read says so
  }
}

export class ScriptArchResolver {
  private readonly hefs = new Map<string, { stamp: string; result: Promise<HefArch> }>();

  private hefArch(path: string): Promise<HefArch> {
    const st = FileRoots.named(path).stamp(path) ?? 'not a file';
    const hit = this.hefs.get(path);
    if (hit && hit.stamp === st) return hit.result;
    const result = leavesFolder(path, dirname(path))
      ? Promise.resolve<HefArch>({ error: "it is a link to a file outside the script's folder; not read" })
      : withFileSource(path, readHefHwArch).catch((err: unknown): HefArch => ({ error: err instanceof Error ? err.message : String(err) }));
    this.hefs.set(path, { stamp: st, result });
    while (this.hefs.size > 64) this.hefs.delete(this.hefs.keys().next().value as string);
    return result;
  }

  /**
   * The architecture of the script at `scriptPath` (the file need not exist: an unsaved buffer).
   * `model` is what the model resolver found for it (its `.har` and that HAR's `hw_arch`).
   */
  async resolve(scriptPath: string, setting: string, model?: ModelLayerIndex): Promise<ArchInference> {
    const hefPath = findBeside(scriptPath, '.hef');
    const hef = hefPath ? { name: basename(hefPath), ...(await this.hefArch(hefPath)) } : undefined;
    const hefFacts = hef && ('id' in hef ? { name: hef.name, hwArchId: hef.id } : { name: hef.name, error: hef.error });
    const har =
      model?.hwArch !== undefined ? { name: basename(model.source), hwArch: model.hwArch, beside: dirname(model.source) === dirname(scriptPath) } : undefined;
    return inferArch({ scriptPath, setting, hef: hefFacts, har });
  }
}
