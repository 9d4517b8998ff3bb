// Inline HEF checks: integrity, HailoRT compatibility and mtmd contract failures of every .hef in
// the workspace, published as diagnostics on the .hef URIs (the Problems panel). HEFs are binary
// and never opened as text documents, so this service has no language ids; it works from the
// workspace folders (scanned at start) and file-watcher events (`workspace/didChangeWatchedFiles`,
// registered dynamically for `**/*.hef`). It only reads files: safe in untrusted workspaces.
//
// `hailo.hef.inlineChecks`: off = nothing; auto = HEFs that embed hailo-config.json (mtmd
// encoders); always = every HEF. A settings change (or the `hailo/hef/rescan` notification) re-checks.
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { FileAccessError, isInside } from '../common/fileAccess';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { localPathOf } from './uri';
import { FileChangeType, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { checkMtmdSource, fileSource, readHef, HAILO_CONFIG } from '../hef';
import { hefDiagnostics } from '../hef/diagnostics';
import type { Diagnostic } from '../common/types';
import type { HailoSettings } from '../common/settings';
import { HefRescanNotification } from '../protocol';
import type { AttachableService, ServerHost } from './service';

export const HEF_GLOB = '**/*.hef';

export interface HefServiceOptions {
  /** Delay after a change event before re-checking (a file being written fires many). */
  debounceMs?: number;
  /** At most this many HEFs are found by the start-up scan. */
  maxFiles?: number;
}

const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);
const SEVERITY = { error: 1, warning: 2, info: 3, hint: 4 } as const;

function toLsp(d: Diagnostic): LspDiagnostic {
  return { range: d.range, severity: SEVERITY[d.severity], code: d.code, source: 'hailo', message: d.message };
}

const pathOf = localPathOf;

/** Runs the checks for one file; pure apart from reading it. Exported for tests. */
export async function checkHefFile(path: string, settings: Pick<HailoSettings, 'hef' | 'mtmd'>): Promise<Diagnostic[] | undefined> {
  const mode = settings.hef.inlineChecks;
  if (mode === 'off') return [];
  const src = await fileSource(path);
  try {
    if (mode === 'auto') {
      // Decide from the body alone before hashing: most HEFs in a workspace are not encoders.
      const peek = await readHef(src, { verify: false, verifyResources: false });
      if (!peek.externalResources.some((r) => r.name === HAILO_CONFIG)) return [];
    }
    const report = await readHef(src);
    const mtmd = await checkMtmdSource(src, report, { textModelWidth: settings.mtmd.textModelWidth ?? undefined, hefPath: path });
    return hefDiagnostics(report, mtmd);
  } finally {
    await src.close();
  }
}

export function createHefService(options: HefServiceOptions = {}): AttachableService {
  const debounceMs = options.debounceMs ?? 300;
  const maxFiles = options.maxFiles ?? 5000;
  return {
    languageIds: [],
    attach(host: ServerHost) {
      const { connection } = host;
      /** path → the URI we publish on. */
      const known = new Map<string, { uri: string }>();
      const timers = new Map<string, NodeJS.Timeout>();
      const queue: string[] = [];
      const queued = new Set<string>();
      let running = false;

      async function publish(path: string, diagnostics: Diagnostic[]): Promise<void> {
        const entry = known.get(path);
        if (!entry) return;
        // Every check is published, an empty list too: a client (and a test) can tell "checked,
        // nothing wrong" from "not checked yet".
        await connection.sendDiagnostics({ uri: entry.uri, diagnostics: diagnostics.map(toLsp) });
      }

      /**
       * One read per real file and version: 1,500 links to one 96 MiB HEF were read and hashed 1,500
       * times at start-up (223 s of CPU). Keyed by device + inode + size + mtime and the settings.
       */
      const byRealFile = new Map<string, Promise<Diagnostic[]>>();
      let outsideNoted = false;

      /** The real file behind `path` when it may be read: a link must stay inside a workspace folder. */
      async function readableFile(path: string): Promise<{ key: string } | 'outside' | undefined> {
        let st;
        try {
          st = await lstat(path);
          if (st.isSymbolicLink()) {
            const real = await realpath(path);
            const folders = (await host.workspaceFolders()).map(pathOf).filter((p): p is string => !!p);
            const realFolders = await Promise.all(folders.map((f) => realpath(f).catch(() => f)));
            if (!realFolders.some((f) => isInside(real, f))) return 'outside';
            st = await stat(real);
          }
        } catch {
          return undefined; // gone or dangling: the reader says so
        }
        return st.isFile() ? { key: `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}` } : undefined;
      }

      async function check(path: string): Promise<void> {
        const entry = known.get(path);
        if (!entry) return;
        let diagnostics: Diagnostic[];
        try {
          const settings = await host.settingsFor(entry.uri);
          const file = await readableFile(path);
          if (file === 'outside') {
            // Never read: a cloned folder's `x.hef -> /elsewhere/…` says nothing about the workspace.
            if (!outsideNoted) host.log(`hef: ${path} links outside the workspace folders; not read (and no other such link is logged)`);
            outsideNoted = true;
            await publish(path, []);
            return;
          }
          if (file) {
            const key = `${file.key}|${settings.hef.inlineChecks}|${settings.mtmd.textModelWidth ?? ''}`;
            let shared = byRealFile.get(key);
            if (!shared) {
              shared = checkHefFile(path, settings).then((d) => d ?? []);
              byRealFile.set(key, shared);
              if (byRealFile.size > 4 * maxFiles) byRealFile.delete(byRealFile.keys().next().value!);
              shared.catch(() => byRealFile.delete(key)); // a failed read is reported per path below
            }
            diagnostics = await shared;
          } else diagnostics = (await checkHefFile(path, settings)) ?? [];
        } catch (err) {
          const e = err as NodeJS.ErrnoException;
          if (e.code === 'ENOENT') {
            await publish(path, []);
            known.delete(path);
            return;
          }
          // A folder, FIFO or device named *.hef is one finding (FileAccessError); an errno is the
          // file system's answer (EACCES…); anything else is our bug.
          if (err instanceof FileAccessError) host.log(`hef: ${e.message}`);
          else if (typeof e?.code === 'string') host.log(`hef: cannot read ${path}: ${e.message}`);
          else host.onError(err, `hef: checking ${path}`);
          diagnostics = [
            {
              range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
              severity: 'error',
              code: 'hef/unreadable',
              message: `Cannot read this HEF: ${e.message}`,
            },
          ];
        }
        await publish(path, diagnostics);
      }

      // One file at a time: hashing a large HEF must not starve the editor's requests.
      async function drain(): Promise<void> {
        if (running) return;
        running = true;
        try {
          while (queue.length) {
            const path = queue.shift()!;
            queued.delete(path);
            await check(path);
          }
        } finally {
          running = false;
        }
      }

      function enqueue(path: string, uri: string, delay: number): void {
        const entry = known.get(path);
        if (entry) entry.uri = uri;
        else known.set(path, { uri });
        const old = timers.get(path);
        if (old) clearTimeout(old);
        const go = () => {
          timers.delete(path);
          if (!queued.has(path)) {
            queued.add(path);
            queue.push(path);
          }
          void drain();
        };
        if (delay <= 0) go();
        else timers.set(path, setTimeout(go, delay));
      }

      async function scanFolder(dir: string, found: string[], depth: number): Promise<void> {
        if (depth > 24 || found.length >= maxFiles) return;
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const e of entries) {
          if (found.length >= maxFiles) return;
          if (e.isDirectory()) {
            if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await scanFolder(join(dir, e.name), found, depth + 1);
          } else if (e.name.toLowerCase().endsWith('.hef')) {
            // files, links, and anything else named *.hef (a FIFO or socket gets one finding, never an open)
            found.push(join(dir, e.name));
          }
        }
      }

      async function scanWorkspace(): Promise<void> {
        const found: string[] = [];
        for (const uri of await host.workspaceFolders()) {
          const p = pathOf(uri);
          if (p) await scanFolder(p, found, 0);
        }
        if (found.length >= maxFiles) host.log(`hef: stopped the workspace scan at ${maxFiles} .hef files`);
        for (const p of found) enqueue(p, known.get(p)?.uri ?? pathToFileURL(p).toString(), 0);
      }

      async function rescan(): Promise<void> {
        for (const [path, entry] of known) enqueue(path, entry.uri, 0);
        await scanWorkspace();
      }

      host.watchFiles(HEF_GLOB, (changes) => {
        for (const change of changes) {
          const path = pathOf(change.uri);
          if (!path || !path.toLowerCase().endsWith('.hef')) continue;
          if (change.type === FileChangeType.Deleted) {
            const t = timers.get(path);
            if (t) clearTimeout(t);
            timers.delete(path);
            void publish(path, []).then(() => known.delete(path));
          } else {
            enqueue(path, change.uri, debounceMs);
          }
        }
      });
      connection.onNotification(HefRescanNotification, () => void rescan().catch((err: unknown) => host.onError(err, 'hef: rescan')));
      host.onSettingsChanged(() => void rescan().catch((err: unknown) => host.onError(err, 'hef: rescan')));
      void scanWorkspace().catch((err: unknown) => host.onError(err, 'hef: workspace scan'));
    },
  };
}
