// The e2e suite's command bridge: a test driver runs a VS Code command with arguments and gets its
// completion (the command's promise: its result or its error) instead of typing into the Command
// Palette and guessing from the screen when it has finished (issue 35).
//
// It exists only when the e2e runner asks for it: test/e2e/run.mjs starts code-server with
// HAILO_TOOLS_E2E_BRIDGE naming a private folder (owned by this user, mode 0700), and the extension
// host inherits it. Without that variable nothing listens and nothing is registered, so a user's
// VS Code never has it (test/unit/client/command-bridge.test.ts checks the packaged bundle); with a folder
// others could reach, it refuses to start. The socket lives in that folder, so only this user can
// connect; every extension host (one per window) listens on its own socket (its pid and a random part).
//
// Protocol: newline-delimited JSON over the Unix socket. A request `{id, command, args}` is answered
// once the command has settled by `{id, ok: true, result}` or `{id, ok: false, error}`. Arguments
// and results pass through `revive` / `toWire` (the host maps `{ $file }` / `{ $uri }` to a Uri).
// No vscode import here: the unit test runs it in plain node.
import { randomBytes } from 'node:crypto';
import { lstatSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { isAbsolute, join } from 'node:path';

/** The one switch: the folder the runner made for the bridges' sockets. */
export const BRIDGE_ENV = 'HAILO_TOOLS_E2E_BRIDGE';

export interface BridgeRequest {
  id: number;
  command: string;
  args?: unknown[];
}

export type BridgeReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

export interface CommandBridgeHost {
  /** Runs the command (vscode.commands.executeCommand in the extension). */
  execute(command: string, args: unknown[]): PromiseLike<unknown>;
  /** Maps a wire argument to what the command takes (e.g. `{ $file }` → a Uri). */
  revive?(arg: unknown): unknown;
  /** Maps a result to plain JSON (e.g. a Uri → `{ $uri }`). */
  toWire?(value: unknown): unknown;
  log(message: string): void;
}

export interface CommandBridge {
  socketPath: string;
  /** Resolves once the socket accepts connections. */
  listening: Promise<void>;
  dispose(): void;
}

/** Why the folder cannot hold the bridge's socket, or undefined when it can. */
export function unsafeBridgeFolder(dir: string): string | undefined {
  if (!isAbsolute(dir)) return `${dir} is not an absolute path`;
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return `${dir} does not exist`;
  }
  if (!st.isDirectory()) return `${dir} is not a folder`;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((st.mode & 0o077) !== 0) return `${dir} can be reached by other users (mode ${(st.mode & 0o777).toString(8)}; it must be 700)`;
  return undefined;
}

/**
 * Starts the bridge when `env` names a safe folder; otherwise returns undefined (and, when the
 * variable is set but the folder is unsafe, says why in the log).
 */
export function startCommandBridge(env: NodeJS.ProcessEnv, host: CommandBridgeHost): CommandBridge | undefined {
  const dir = env[BRIDGE_ENV];
  if (dir === undefined || dir === '') return undefined;
  const unsafe = unsafeBridgeFolder(dir);
  if (unsafe) {
    host.log(`e2e command bridge not started: ${unsafe}`);
    return undefined;
  }
  // A name no earlier host had (a pid can come again): the driver tells windows apart by new names.
  const socketPath = join(dir, `ext-host-${process.pid}-${randomBytes(4).toString('hex')}.sock`);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.trim()) void answer(line).then((reply) => socket.writable && socket.write(`${JSON.stringify(reply)}\n`));
      }
    });
  });

  async function answer(line: string): Promise<BridgeReply> {
    let request: BridgeRequest;
    try {
      request = JSON.parse(line) as BridgeRequest;
    } catch {
      return { id: -1, ok: false, error: 'the request is not JSON' };
    }
    const id = typeof request.id === 'number' ? request.id : -1;
    if (typeof request.command !== 'string' || !request.command) return { id, ok: false, error: 'the request names no command' };
    if (request.args !== undefined && !Array.isArray(request.args)) return { id, ok: false, error: 'args must be an array' };
    try {
      const args = (request.args ?? []).map((a) => (host.revive ? host.revive(a) : a));
      const result = await host.execute(request.command, args);
      return { id, ok: true, result: plainJson(host.toWire ? host.toWire(result) : result) };
    } catch (err) {
      return { id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      host.log(`e2e command bridge listening on ${socketPath} (${BRIDGE_ENV} is set)`);
      resolve();
    });
  });
  listening.catch((err: Error) => host.log(`e2e command bridge failed: ${err.message}`));
  return {
    socketPath,
    listening,
    dispose() {
      for (const s of sockets) s.destroy();
      server.close();
      rmSync(socketPath, { force: true });
    },
  };
}

/** A result as JSON can carry it (functions dropped by JSON itself); a cyclic one with its cycles cut. */
function plainJson(value: unknown): unknown {
  if (value === undefined) return null;
  const bigints = (_key: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);
  let text: string | undefined;
  try {
    text = JSON.stringify(value, bigints);
  } catch {
    const seen = new WeakSet<object>();
    text = JSON.stringify(value, (key, v: unknown) => {
      if (v && typeof v === 'object') {
        if (seen.has(v)) return '[seen before]';
        seen.add(v);
      }
      return bigints(key, v);
    });
  }
  return text === undefined ? null : (JSON.parse(text) as unknown);
}
