// The NMS part of the language server's workspace HEF scan: a HEF's NMS (net-flow op or on-chip
// outputs) against the script, NMS config and labels file beside it, so a mismatch reaches the
// Problems panel without opening anything. The HEF is not read again (the scan hands over the
// network group it read); each side file is read once per version (size + mtime), however many HEFs
// share it; the HAR is read for its HN only (no ONNX). Returns each finding with the file it sits in
// and the files the verdict rests on, so a change to one of them re-checks the HEF.
import { basename } from 'node:path';
import { resolveNmsConfigPath } from '../alls/nodeHost';
import { limit } from '../common/limits';
import type { ModelPathSettings } from '../har/modelResolver';
import { ModelResolver } from '../har/modelResolver';
import type { NetworkGroupInfo } from '../hef/model';
import { checkHefNms, type TextSource } from './bundle';
import type { NmsFinding } from './checks';
import { nmsHefFacts } from './hefFacts';
import { pushAll } from '../common/arrays';

export interface HefNmsScanResult {
  /** Findings with the path of the file each sits in (script, config or labels file). */
  located: (NmsFinding & { path: string })[];
  /** The side files that decided the findings (script, config, labels, HAR): a change to one re-checks the HEF. */
  dependsOn: string[];
  /** Side files found but unreadable, one sentence each (for the log). */
  problems: string[];
}

export interface HefNmsScanSettings {
  /** `hailo.model.labels`, relative to the HEF ('' = a labels file beside the HEF or script). */
  labels: string;
  /** `hailo.model.har`, relative to the script ('' = the HAR beside the script). */
  har: string;
}

const MEMO_SIZE = 256;

export class HefNmsScanner {
  private readonly resolver = new ModelResolver(() => ({ ok: false, stamp: 'skipped', error: 'not read for the NMS checks' }));
  private readonly texts = new Map<string, { stamp: string; text: string }>();

  /** Side files from disk (the saved state), once per version of each. Throws what the read throws. */
  private readonly text: TextSource = (path, roots) => {
    const stamp = roots.stamp(path);
    const hit = this.texts.get(path);
    if (stamp && hit?.stamp === stamp) return hit.text;
    const text = roots.readText(path, limit('nmsSideFileBytes'));
    if (stamp) {
      this.texts.delete(path);
      this.texts.set(path, { stamp, text });
      while (this.texts.size > MEMO_SIZE) this.texts.delete(this.texts.keys().next().value as string);
    }
    return text;
  };

  /** The NMS findings of the HEF at `hefPath`, whose first network group the scan already read. */
  async check(hefPath: string, group: NetworkGroupInfo | undefined, settings: HefNmsScanSettings): Promise<HefNmsScanResult> {
    const out: HefNmsScanResult = { located: [], dependsOn: [], problems: [] };
    if (!group) return out;
    const facts = nmsHefFacts(basename(hefPath), group);
    const labelsPath = settings.labels ? resolveNmsConfigPath(settings.labels, hefPath, 'hailo.model.labels path') : undefined;
    let harPath: string | undefined;
    const modelSettings: ModelPathSettings = settings.har ? { harPath: settings.har } : {};
    const r = await checkHefNms(hefPath, {
      hefFacts: facts,
      open: this.text,
      ...(labelsPath ? { labelsPath } : {}),
      // The HN is worth reading only when the HEF has NMS: without it, the one finding (a script that
      // asks for NMS beside a HEF without) needs no model.
      ...(facts.kind === 'none'
        ? {}
        : {
            model: async (script: string) => {
              const m = await this.resolver.resolve(script, modelSettings);
              harPath = m.harPath;
              pushAll(out.problems, m.problems);
              return m.index;
            },
          }),
    });
    const pathOf = (f: NmsFinding) => (f.file === 'config' ? r.configPath : f.file === 'labels' ? r.labelsPath : f.file === 'script' ? r.scriptPath : hefPath);
    for (const f of r.findings) {
      const path = pathOf(f);
      if (path) out.located.push({ ...f, path });
    }
    out.dependsOn = [r.scriptPath, r.configPath, r.labelsPath, harPath].filter((p): p is string => !!p);
    pushAll(out.problems, r.problems);
    return out;
  }
}
