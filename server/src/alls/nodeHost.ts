// The one place the `.alls` core touches the file system (used by the CLI and the LSP adapter, not
// by the pure core): does an `nms_postprocess` config path exist? Only `stat`, never a read.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

/**
 * The file an `nms_postprocess` config path names: `$VAR` / `${VAR}` expanded from `env`, a relative
 * path resolved against the script's folder (as the DFC does). `undefined` when it cannot tell (an
 * unset variable, or a relative path for a script that has no folder yet).
 */
export function resolveNmsConfigPath(raw: string, scriptPath: string | undefined, env: Record<string, string | undefined> = process.env): string | undefined {
  let unset = false;
  const p = raw.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => {
    const v = Object.hasOwn(env, name) ? env[name] : undefined;
    if (v === undefined) unset = true;
    return v ?? '';
  });
  if (unset) return undefined;
  if (isAbsolute(p)) return p;
  return scriptPath ? resolve(dirname(scriptPath), p) : undefined;
}

/** A `fileExists` for CheckOptions over resolveNmsConfigPath; only `stat`, never a read. */
export function nmsConfigResolver(scriptPath: string | undefined, env: Record<string, string | undefined> = process.env): (raw: string) => boolean | undefined {
  return (raw) => {
    const p = resolveNmsConfigPath(raw, scriptPath, env);
    if (p === undefined) return undefined;
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
}
