// The language server's only reader of `hailo.*` settings. Layers, highest first:
//   1. `workspace/configuration` (section `hailo`, scoped to the document) — only if the client
//      declared `workspace.configuration`; cached per URI until the next didChangeConfiguration;
//   2. the `hailo` section a client pushed with `workspace/didChangeConfiguration`;
//   3. `initializationOptions` (`{hailo: {…}}` or the section itself) — for clients such as Helix
//      whose only way to pass settings may be the initialize request;
//   4. the defaults of common/settings.ts.
// A key missing from one layer falls through to the next, so a client may split them.
// The model path settings then go through common/settingPaths.ts: absolute, and a value leading
// outside the opened folders and the document's folder is emptied with one log line (never read).
import type { Connection, InitializeParams } from 'vscode-languageserver/node';
import { resolveSettings, sectionLookup, type HailoSettings, type SettingLookup } from '../core/common/settings';
import { confineModelPaths, modelFolderOf } from '../core/common/settingPaths';
import { currentOpenedFolders } from '../core/alls/nodeHost';
import { localPathOf } from './uri';

export class SettingsStore {
  private canPull = false;
  private initial: SettingLookup = () => undefined;
  private pushed: SettingLookup = () => undefined;
  private readonly cache = new Map<string, Promise<HailoSettings>>();
  private readonly listeners: (() => void)[] = [];
  private pullFailureLogged = false;
  private readonly refusalsLogged = new Set<string>();

  constructor(
    private readonly connection: Pick<Connection, 'workspace'>,
    private readonly log: (message: string) => void,
  ) {}

  /** Reads what the client declared and sent in `initialize`. */
  initialize(params: Pick<InitializeParams, 'capabilities' | 'initializationOptions'>): void {
    this.canPull = !!params.capabilities.workspace?.configuration;
    this.initial = sectionLookup(sectionOf(params.initializationOptions));
  }

  /** Settings for a document (or folder) URI. */
  get(uri: string): Promise<HailoSettings> {
    return this.read(uri).then((s) => this.confined(uri, s));
  }

  private confined(uri: string, settings: HailoSettings): HailoSettings {
    const path = localPathOf(uri);
    return confineModelPaths(settings, path ? modelFolderOf(path) : undefined, currentOpenedFolders(), (sentence, once) => {
      // One line per setting value: a refused value is asked for by every model folder.
      if (this.refusalsLogged.has(once)) return;
      this.refusalsLogged.add(once);
      this.log(`settings: ${sentence}`);
    });
  }

  private read(uri: string): Promise<HailoSettings> {
    if (!this.canPull) return Promise.resolve(resolveSettings(this.fallback()));
    let p = this.cache.get(uri);
    if (!p) {
      p = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'hailo' }).then(
        (raw: unknown) => {
          const pulled = sectionLookup(raw);
          const below = this.fallback();
          return resolveSettings((key) => pulled(key) ?? below(key));
        },
        (err: unknown) => {
          if (!this.pullFailureLogged)
            this.log(`settings: workspace/configuration failed (${(err as Error)?.message ?? err}); using pushed or initial settings`);
          this.pullFailureLogged = true;
          return resolveSettings(this.fallback());
        },
      );
      this.cache.set(uri, p);
    }
    return p;
  }

  /** `workspace/didChangeConfiguration`: drop the cache, keep what was pushed, tell listeners. */
  changed(settings: unknown): void {
    this.cache.clear();
    this.refusalsLogged.clear();
    const section = sectionOf(settings);
    if (section !== undefined) this.pushed = sectionLookup(section);
    for (const l of this.listeners) l();
  }

  /** A document closed: its scope need not stay cached. */
  forget(uri: string): void {
    this.cache.delete(uri);
  }

  /** Called after every settings change (a service re-checks what depends on them). */
  onDidChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private fallback(): SettingLookup {
    const pushed = this.pushed;
    const initial = this.initial;
    return (key) => pushed(key) ?? initial(key);
  }
}

/** `{hailo: {…}}` → the inner object; an object without `hailo` is taken as the section itself. */
function sectionOf(value: unknown): unknown {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  return 'hailo' in v ? v.hailo : v;
}
