// The extension's side of the e2e command bridge (commandBridge.ts): commands run through
// vscode.commands.executeCommand; `{ $file: path }` and `{ $uri: text }` arguments become Uris and
// Uri results go back as `{ $uri }`. Does nothing unless the e2e runner set HAILO_TOOLS_E2E_BRIDGE.
import * as vscode from 'vscode';
import { startCommandBridge } from './commandBridge';

function revive(arg: unknown): unknown {
  if (Array.isArray(arg)) return arg.map(revive);
  if (arg && typeof arg === 'object') {
    const o = arg as Record<string, unknown>;
    if (typeof o.$file === 'string' && Object.keys(o).length === 1) return vscode.Uri.file(o.$file);
    if (typeof o.$uri === 'string' && Object.keys(o).length === 1) return vscode.Uri.parse(o.$uri, true);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, revive(v)]));
  }
  return arg;
}

function toWire(value: unknown, depth = 0): unknown {
  if (value instanceof vscode.Uri) return { $uri: value.toString() };
  if (depth > 32) return value; // deeper (or cyclic) parts go as JSON can carry them
  if (Array.isArray(value)) return value.map((v) => toWire(v, depth + 1));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v, depth + 1)]));
  return value;
}

export function registerCommandBridge(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const bridge = startCommandBridge(process.env, {
    execute: (command, args) => vscode.commands.executeCommand(command, ...args),
    revive,
    toWire: (value) => toWire(value),
    log: (message) => log.info(message),
  });
  if (bridge) context.subscriptions.push(bridge);
}
