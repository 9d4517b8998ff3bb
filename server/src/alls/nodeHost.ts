// The one place the `.alls` core touches the file system (used by the CLI and the LSP adapter, not
// by the pure core): does an `nms_postprocess` config path exist? Only `stat`, never a read.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

/**
 * A `fileExists` for CheckOptions: expands `$VAR` / `${VAR}` from `env` and resolves relative
 * paths against the script's folder (as the DFC does). `undefined` when it cannot tell (an unset
 * variable, or a relative path for a script that has no folder yet).
 */
export function nmsConfigResolver(scriptPath: string | undefined, env: Record<string, string | undefined> = process.env): (raw: string) => boolean | undefined {
  return (raw) => {
    let unset = false;
    let p = raw.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => {
      const v = Object.hasOwn(env, name) ? env[name] : undefined;
      if (v === undefined) unset = true;
      return v ?? '';
    });
    if (unset) return undefined;
    if (!isAbsolute(p)) {
      if (!scriptPath) return undefined;
      p = resolve(dirname(scriptPath), p);
    }
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
}
