// Runs VS Code commands in a window's extension host through the e2e command bridge
// (client/src/testing/commandBridge.ts) and waits for their completion — the command's own promise,
// its result or its error — instead of typing into the Command Palette and reading the screen to
// guess when the command has finished. Scenarios about the palette itself keep using
// workbench.ts runCommand.
//
// Each window (openWorkbench) has its own extension host, which listens on its own socket in the
// instance's bridge folder once the extension has registered its commands; the window's bridge is
// the socket that appeared after the page was opened.
import { existsSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { deadlineMs, waitUntil } from '../waits';
import { e2e } from './context';

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

class Bridge {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed: Error | undefined;

  constructor(
    readonly socketPath: string,
    private readonly socket: Socket,
  ) {
    let buffered = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const reply = JSON.parse(buffered.slice(0, nl)) as { id: number; ok: boolean; result?: unknown; error?: string };
        buffered = buffered.slice(nl + 1);
        const p = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        if (reply.ok) p?.resolve(reply.result);
        else p?.reject(new Error(reply.error));
      }
    });
    const end = (err: Error) => {
      this.closed = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    socket.on('error', (err) => end(new Error(`the command bridge ${socketPath} failed: ${err.message}`)));
    socket.on('close', () => end(new Error(`the extension host closed its command bridge ${socketPath}`)));
  }

  execute(command: string, args: unknown[], timeoutMs: number): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${command} did not complete within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(new Error(`${command} failed: ${err.message}`));
        },
      });
      this.socket.write(`${JSON.stringify({ id, command, args })}\n`);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

const bridges = new WeakMap<Page, Bridge>();

/** The sockets in the bridge folder now (call before opening a page; pass to attachBridge). */
export function bridgeSockets(): Set<string> {
  const dir = e2e().bridgeDir;
  return new Set(existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.sock')) : []);
}

function tryConnect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    s.once('connect', () => {
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', reject);
  });
}

/**
 * Waits until this page's extension host has activated the extension (its bridge socket is new
 * since `before` and accepts a connection) and keeps the connection for `execute`.
 */
export async function attachBridge(page: Page, before: Set<string>): Promise<void> {
  const dir = e2e().bridgeDir;
  const fresh = await waitUntil(
    `the window's extension host to start the Hailo extension (a new command bridge in ${dir})`,
    () => [...bridgeSockets()].filter((n) => !before.has(n)),
    (names) => names.length === 1,
    // the workbench loads, the remote extension host starts, the extension activates
    { timeoutMs: deadlineMs(3) },
  );
  const path = join(dir, fresh[0]);
  const socket = await waitUntil(`a connection to ${path}`, () => tryConnect(path), Boolean);
  const bridge = new Bridge(path, socket);
  bridges.set(page, bridge);
  page.once('close', () => bridge.close());
}

/**
 * Runs `command` with `args` in `page`'s extension host; resolves with the command's result once its
 * promise settles (rejects with its error). `steps` scales the deadline for commands that run long
 * (a compile, a sweep). Start it without awaiting to answer the command's questions in the page.
 */
export function execute<T = unknown>(page: Page, command: string, args: unknown[] = [], { steps = 1 } = {}): Promise<T> {
  const bridge = bridges.get(page);
  if (!bridge) return Promise.reject(new Error('this page has no command bridge (open it with openWorkbench)'));
  return bridge.execute(command, args, deadlineMs(steps)) as Promise<T>;
}

/** A workspace file as a command argument (the extension's bridge makes it a file Uri). */
export function fileArg(relativePath: string): { $file: string } {
  return { $file: join(e2e().workspace, relativePath) };
}
