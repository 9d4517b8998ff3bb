// Which document URIs are files this server may read: `file:` URIs of this machine only. A
// `file://host/share/x.alls` URI names a file on another host (on POSIX fileURLToPath throws for
// it, and two handlers logged a stack trace on every edit); `untitled:`, `vscode-vfs:` and the
// like are not files. Such documents are still checked as text; only the features that read
// files beside them (model layers, calibration set, NMS config) are skipped, quietly.
import { fileURLToPath } from 'node:url';

/** The local path of a `file:` URI without a host (or with `localhost`), else undefined. */
export function localPathOf(uri: string): string | undefined {
  if (!/^file:/i.test(uri)) return undefined;
  try {
    const u = new URL(uri);
    if (u.host !== '' && u.host.toLowerCase() !== 'localhost') return undefined;
    return fileURLToPath(u);
  } catch {
    return undefined;
  }
}
