// Helpers for in-host scenarios: find workspace files, wait on VS Code events (never fixed sleeps).
import * as vscode from 'vscode';
import { deadlineMs, shown, waitUntil } from '../waits';

export { deadlineMs, waitForEqual, waitForMatch, waitUntil } from '../waits';

export const EXTENSION_ID = 'hailo-tools.hailo-tools';

/** The driver runs one code-server with trust disabled and one in Restricted Mode. */
export const expectUntrusted = process.env.HAILO_E2E_TRUST === 'untrusted';

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the e2e run must open a folder (a copy of examples/)');
  return folder.uri;
}

export function workspaceFile(...parts: string[]): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...parts);
}

/** Resolves with the first event value that satisfies `accept`, or rejects after `timeoutMs`. */
export function waitForEvent<T>(event: vscode.Event<T>, accept: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const sub = event((value) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(value);
    });
  });
}

/**
 * Diagnostics of `uri` once `accept` holds: checks the current set first, then waits on
 * onDidChangeDiagnostics (the language server publishes after didOpen).
 */
export async function waitForDiagnostics(uri: vscode.Uri, accept: (d: vscode.Diagnostic[]) => boolean, timeoutMs = deadlineMs()): Promise<vscode.Diagnostic[]> {
  const now = vscode.languages.getDiagnostics(uri);
  if (accept(now)) return now;
  await waitForEvent(
    vscode.languages.onDidChangeDiagnostics,
    (e) => e.uris.some((u) => u.toString() === uri.toString()) && accept(vscode.languages.getDiagnostics(uri)),
    timeoutMs,
    `diagnostics on ${uri.path}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last seen: ${shown(vscode.languages.getDiagnostics(uri).map(describeDiagnostic))}`);
  });
  return vscode.languages.getDiagnostics(uri);
}

/** "line:column code severity message", 1-based, for failure messages. */
export function describeDiagnostic(d: vscode.Diagnostic): string {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return `${d.range.start.line + 1}:${d.range.start.character + 1} ${code ?? ''} ${vscode.DiagnosticSeverity[d.severity]} ${d.message}`;
}

/** Polls `probe` until it answers (not undefined) where VS Code offers no event (e.g. provider results). */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  return (await waitUntil(what, probe, (v) => v !== undefined, { timeoutMs })) as T;
}

// URIs the language server has published diagnostics for (an empty list included), from the
// moment this module loads (before the suite's first test).
const published = new Set<string>();
vscode.languages.onDidChangeDiagnostics((e) => e.uris.forEach((u) => published.add(u.toString())));

/**
 * Opens a file and returns its diagnostics once the server has published for it — an empty list
 * is an answer only after a publication. A timeout fails; it never stands for "no problems".
 */
export async function openAndWaitForPublication(uri: vscode.Uri, timeoutMs = deadlineMs()): Promise<vscode.Diagnostic[]> {
  const key = uri.toString();
  const first = published.has(key)
    ? Promise.resolve()
    : waitForEvent(vscode.languages.onDidChangeDiagnostics, (e) => e.uris.some((u) => u.toString() === key), timeoutMs, `the first diagnostics of ${uri.path}`);
  await openInEditor(uri);
  await first;
  return vscode.languages.getDiagnostics(uri);
}

/** Resolves when diagnostics of `uri` are published next (listen first, then cause it). */
export function nextPublication(uri: vscode.Uri, timeoutMs = deadlineMs(2)): Promise<vscode.Diagnostic[]> {
  const key = uri.toString();
  return waitForEvent(vscode.languages.onDidChangeDiagnostics, (e) => e.uris.some((u) => u.toString() === key), timeoutMs, `diagnostics of ${uri.path}`).then(
    () => vscode.languages.getDiagnostics(uri),
  );
}

export async function openInEditor(uri: vscode.Uri): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(doc);
}

export function hailoExtension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  return ext;
}

/**
 * Reverts and closes every dirty Untitled editor a test opened. Runs after each test, whether it
 * passed or not: VS Code's hot exit would restore a dirty editor into the next page of the suite,
 * where "Close All Editors" stops at a save dialog.
 */
export async function discardUntitled(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isUntitled && d.isDirty)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}
