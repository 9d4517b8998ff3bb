// Inline HEF checks: integrity, HailoRT compatibility and mtmd contract failures of every .hef in
// the workspace, and the NMS checks of detector HEFs against the script, NMS config and labels file
// beside them, published as diagnostics on the .hef URIs (the Problems panel). HEFs are binary
// and never opened as text documents, so this service has no language ids; it works from the
// workspace folders (scanned at start) and file-watcher events (`workspace/didChangeWatchedFiles`,
// registered dynamically for `**/*.hef`, and for the side files an NMS verdict rests on). It only
// reads files: safe in untrusted workspaces.
//
// `hailo.hef.inlineChecks`: off = nothing; auto = HEFs that embed hailo-config.json (mtmd
// encoders), and the NMS checks of every HEF (they find something only where a script, config or
// labels file lies beside it); always = every HEF, integrity included. A settings change (or the
// `hailo/hef/rescan` notification) re-checks.
//
// An NMS finding sits in another file (the config's `"classes"`, the labels list): on the HEF it is
// one diagnostic naming that file and line, with the place as related information — unless that
// file is open, where its own service shows it on its line (so Problems lists it once).
import { FileRoots } from '../core/common/confined';
import { FileAccessError } from '../core/common/fileAccess';
import { dirname, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { localPathOf } from './uri';
import { FileChangeType, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { checkMtmdSource, fileSource, readHef, HAILO_CONFIG } from '../core/hef';
import { hefDiagnostics } from '../core/hef/diagnostics';
import type { Diagnostic } from '../core/common/types';
import type { HailoSettings } from '../core/common/settings';
import { HefNmsScanner, type HefNmsScanResult } from '../core/nms/scan';
import { HefRescanNotification } from '../protocol';
import type { AttachableService, ServerHost } from './service';
import { walkWorkspaceFolder } from './workspaceWalk';

export const HEF_GLOB = '**/*.hef';
/** Files an NMS verdict on a HEF rests on (scripts, configs and labels JSON, names files, HARs). */
export const NMS_SIDE_GLOB = '**/*.{alls,json,names,txt,har}';
const NMS_SIDE_FILE = /\.(alls|json|names|txt|har)$/i;

export interface HefServiceOptions {
  /** Delay after a change event before re-checking (a file being written fires many). */
  debounceMs?: number;
  /** At most this many HEFs are found by the start-up scan. */
  maxFiles?: number;
}

const SEVERITY = { error: 1, warning: 2, info: 3, hint: 4 } as const;
const AT_START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function toLsp(d: Diagnostic): LspDiagnostic {
  return { range: d.range, severity: SEVERITY[d.severity], code: d.code, source: 'hailo', message: d.message };
}

const pathOf = localPathOf;

export interface HefFileCheck {
  diagnostics: Diagnostic[];
  /** The NMS checks, when they ran. */
  nms?: HefNmsScanResult;
  /** An exception of the NMS checks (our bug, not the file's): the caller reports it; the HEF's own checks still count. */
  nmsError?: unknown;
}

/** Runs the checks for one file; pure apart from reading it and the side files. Exported for tests. */
export async function checkHefFile(
  path: string,
  settings: Pick<HailoSettings, 'hef' | 'mtmd' | 'model'>,
  nmsScanner: HefNmsScanner = new HefNmsScanner(),
): Promise<HefFileCheck> {
  const mode = settings.hef.inlineChecks;
  if (mode === 'off') return { diagnostics: [] };
  const src = await fileSource(path);
  try {
    // The body alone first (no hashing): it decides whether this is an encoder, and the NMS facts
    // come from it, so a detector HEF is read once.
    const peek = await readHef(src, { verify: false, verifyResources: false });
    const out: HefFileCheck = { diagnostics: [] };
    try {
      out.nms = await nmsScanner.check(path, peek.networkGroups[0], { labels: settings.model.labels, har: settings.model.har });
    } catch (err) {
      out.nmsError = err;
    }
    if (mode === 'auto' && !peek.externalResources.some((r) => r.name === HAILO_CONFIG)) return out;
    const report = await readHef(src);
    const mtmd = await checkMtmdSource(src, report, { textModelWidth: settings.mtmd.textModelWidth ?? undefined, hefPath: path });
    out.diagnostics = hefDiagnostics(report, mtmd);
    return out;
  } finally {
    await src.close();
  }
}

/** An NMS finding of another file, as a diagnostic on the HEF: the file and line first, the place as related information. */
export function nmsOnHef(hefPath: string, f: HefNmsScanResult['located'][number]): LspDiagnostic {
  const where = relative(dirname(hefPath), f.path) || f.path;
  return {
    range: AT_START,
    severity: SEVERITY[f.severity],
    code: f.code,
    source: 'hailo-nms',
    message: `${where}:${f.range.start.line + 1}: ${f.message}`,
    relatedInformation: [{ location: { uri: pathToFileURL(f.path).toString(), range: f.range }, message: `${f.code} in ${where}` }],
  };
}

export function createHefService(options: HefServiceOptions = {}): AttachableService {
  const debounceMs = options.debounceMs ?? 300;
  const maxFiles = options.maxFiles ?? 5000;
  return {
    languageIds: [],
    attach(host: ServerHost) {
      const { connection } = host;
      /** path → the URI we publish on, and what the last check found. */
      const known = new Map<string, { uri: string; own?: Diagnostic[]; nms?: HefNmsScanResult }>();
      const timers = new Map<string, NodeJS.Timeout>();
      const queue: string[] = [];
      const queued = new Set<string>();
      const nmsScanner = new HefNmsScanner();
      let running = false;

      const isOpen = (path: string) => host.documents.all().some((d) => pathOf(d.uri) === path);

      async function publish(path: string): Promise<void> {
        const entry = known.get(path);
        if (!entry) return;
        // Every check is published, an empty list too: a client (and a test) can tell "checked,
        // nothing wrong" from "not checked yet".
        const nms = (entry.nms?.located ?? []).filter((f) => !isOpen(f.path)).map((f) => nmsOnHef(path, f));
        await connection.sendDiagnostics({ uri: entry.uri, diagnostics: [...(entry.own ?? []).map(toLsp), ...nms] });
      }

      /**
       * One read per real file and version: 1,500 links to one 96 MiB HEF were read and hashed 1,500
       * times at start-up (223 s of CPU). Keyed by device + inode + size + mtime, the settings and
       * the link's folder (the NMS checks read the side files beside the path); emptied when a side
       * file changes.
       */
      const byRealFile = new Map<string, Promise<HefFileCheck>>();
      let outsideNoted = false;

      /** The real file behind `path` when it may be read: a link must stay inside a workspace folder. */
      async function readableFile(path: string): Promise<{ key: string } | 'outside' | undefined> {
        let st = FileRoots.named(path).lstat(path);
        if (!st) return undefined; // gone: the reader says so
        if (st.isSymbolicLink()) {
          const folders = (await host.workspaceFolders()).map(pathOf).filter((p): p is string => !!p);
          if (!folders.length) return 'outside';
          const roots = FileRoots.of(folders);
          try {
            st = roots.stat(path);
          } catch (err) {
            return err instanceof FileAccessError && err.code === 'outside' ? 'outside' : undefined; // dangling: the reader says so
          }
          if (!st) return undefined;
        }
        return st.isFile() ? { key: `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}` } : undefined;
      }

      async function check(path: string): Promise<void> {
        const entry = known.get(path);
        if (!entry) return;
        try {
          const settings = await host.settingsFor(entry.uri);
          const file = await readableFile(path);
          if (file === 'outside') {
            // Never read: a cloned folder's `x.hef -> /elsewhere/…` says nothing about the workspace.
            if (!outsideNoted) host.log(`hef: ${path} links outside the workspace folders; not read (and no other such link is logged)`);
            outsideNoted = true;
            entry.own = [];
            entry.nms = undefined;
            await publish(path);
            return;
          }
          let r: HefFileCheck;
          if (file) {
            const key = `${file.key}|${dirname(path)}|${settings.hef.inlineChecks}|${settings.mtmd.textModelWidth ?? ''}|${settings.model.labels ?? ''}|${settings.model.har ?? ''}`;
            let shared = byRealFile.get(key);
            if (!shared) {
              shared = checkHefFile(path, settings, nmsScanner);
              byRealFile.set(key, shared);
              if (byRealFile.size > 4 * maxFiles) byRealFile.delete(byRealFile.keys().next().value!);
              shared.catch(() => byRealFile.delete(key)); // a failed read is reported per path below
            }
            r = await shared;
          } else r = await checkHefFile(path, settings, nmsScanner);
          entry.own = r.diagnostics;
          entry.nms = r.nms;
          for (const p of r.nms?.problems ?? []) host.log(`nms: ${p}`);
          if (r.nmsError !== undefined) {
            host.onError(r.nmsError, `nms: checking ${path}`);
            entry.own = [
              ...entry.own,
              {
                range: AT_START,
                severity: 'error',
                code: 'hailo/internal-error',
                message: `Internal error in the NMS checks of this HEF: ${(r.nmsError as Error)?.message ?? String(r.nmsError)} (the log has the details).`,
              },
            ];
          }
        } catch (err) {
          const e = err as NodeJS.ErrnoException;
          if (e.code === 'ENOENT') {
            entry.own = [];
            entry.nms = undefined;
            await publish(path);
            known.delete(path);
            return;
          }
          // A folder, FIFO or device named *.hef is one finding (FileAccessError); an errno is the
          // file system's answer (EACCES…); anything else is our bug.
          if (err instanceof FileAccessError) host.log(`hef: ${e.message}`);
          else if (typeof e?.code === 'string') host.log(`hef: cannot read ${path}: ${e.message}`);
          else host.onError(err, `hef: checking ${path}`);
          entry.own = [{ range: AT_START, severity: 'error', code: 'hef/unreadable', message: `Cannot read this HEF: ${e.message}` }];
          entry.nms = undefined;
        }
        await publish(path);
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

      async function scanWorkspace(): Promise<void> {
        const found: string[] = [];
        for (const uri of await host.workspaceFolders()) {
          const p = pathOf(uri);
          // files, links, and anything else named *.hef (a FIFO or socket gets one finding, never an open)
          if (p) await walkWorkspaceFolder(p, found, maxFiles, (e) => e.name.toLowerCase().endsWith('.hef'));
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
            const entry = known.get(path);
            if (entry) {
              entry.own = [];
              entry.nms = undefined;
            }
            void publish(path).then(() => known.delete(path));
          } else {
            enqueue(path, change.uri, debounceMs);
          }
        }
      });
      // A script, config, labels file or HAR changed on disk: re-check the HEFs whose verdict rests on
      // it, and those in its folder (a labels file or config may have appeared beside them).
      host.watchFiles(NMS_SIDE_GLOB, (changes) => {
        const hit = new Set<string>();
        for (const change of changes) {
          const p = pathOf(change.uri);
          // Every watcher's events reach every handler: take only the side files (the .hef watcher has its own).
          if (!p || !NMS_SIDE_FILE.test(p)) continue;
          for (const [hef, entry] of known) if (dirname(hef) === dirname(p) || entry.nms?.dependsOn.includes(p)) hit.add(hef);
        }
        if (hit.size > 0) byRealFile.clear(); // the NMS verdicts rest on side files the key does not name
        for (const hef of hit) enqueue(hef, known.get(hef)!.uri, debounceMs);
      });
      // Opening a file moves its NMS findings from the HEF to the file itself; closing moves them back.
      const reshow = (uri: string) => {
        const p = pathOf(uri);
        if (!p) return;
        for (const [hef, entry] of known) if (entry.nms?.located.some((f) => f.path === p)) void publish(hef);
      };
      host.documents.onDidOpen((e) => reshow(e.document.uri));
      host.documents.onDidClose((e) => reshow(e.document.uri));
      connection.onNotification(HefRescanNotification, () => void rescan().catch((err: unknown) => host.onError(err, 'hef: rescan')));
      host.onSettingsChanged(() => void rescan().catch((err: unknown) => host.onError(err, 'hef: rescan')));
      void scanWorkspace().catch((err: unknown) => host.onError(err, 'hef: workspace scan'));
    },
  };
}
