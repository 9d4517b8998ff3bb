// The e2e command bridge (client/src/testing/commandBridge.ts): with HAILO_TOOLS_E2E_BRIDGE naming
// a private folder it runs a command and answers with its completion (result or error); without
// the variable, or with a folder others can reach, nothing listens. The packaged bundle
// (dist/client.js, activated with a stand-in `vscode`) opens no socket and registers nothing extra
// unless the variable is set — a user's VS Code never has the bridge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { connect, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { BRIDGE_ENV, startCommandBridge, type BridgeReply } from '../../../client/src/testing/commandBridge';
import { repoRoot, skipUnless } from '../../helpers/shared';
import { fakeVscode } from '../../fakes/vscodeModule';

function privateFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-bridge-'));
  chmodSync(dir, 0o700);
  return dir;
}

/** Sends requests on one connection; resolves each reply by id, recording the order replies came in. */
function client(socketPath: string) {
  const socket = connect(socketPath);
  const waiting = new Map<number, (r: BridgeReply) => void>();
  const order: number[] = [];
  let buffered = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const reply = JSON.parse(buffered.slice(0, nl)) as BridgeReply;
      buffered = buffered.slice(nl + 1);
      order.push(reply.id);
      waiting.get(reply.id)?.(reply);
    }
  });
  return {
    order,
    send(id: number, command: string, args?: unknown[]): Promise<BridgeReply> {
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        socket.write(`${JSON.stringify({ id, command, args })}\n`);
      });
    },
    close: () => socket.destroy(),
  };
}

test('command bridge: without the variable nothing starts and no socket appears', () => {
  const dir = privateFolder();
  try {
    const logs: string[] = [];
    const bridge = startCommandBridge({}, { execute: () => Promise.resolve(), log: (m) => logs.push(m) });
    assert.equal(bridge, undefined);
    assert.equal(startCommandBridge({ [BRIDGE_ENV]: '' }, { execute: () => Promise.resolve(), log: (m) => logs.push(m) }), undefined);
    assert.deepEqual(readdirSync(dir), []);
    assert.deepEqual(logs, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('command bridge: a folder other users can reach, a relative or missing one, is refused with the reason', () => {
  const dir = privateFolder();
  try {
    chmodSync(dir, 0o755);
    const logs: string[] = [];
    const host = { execute: () => Promise.resolve(), log: (m: string) => logs.push(m) };
    assert.equal(startCommandBridge({ [BRIDGE_ENV]: dir }, host), undefined);
    assert.equal(startCommandBridge({ [BRIDGE_ENV]: 'relative/dir' }, host), undefined);
    assert.equal(startCommandBridge({ [BRIDGE_ENV]: join(dir, 'missing') }, host), undefined);
    assert.deepEqual(readdirSync(dir), []);
    assert.deepEqual(logs, [
      `e2e command bridge not started: ${dir} can be reached by other users (mode 755; it must be 700)`,
      'e2e command bridge not started: relative/dir is not an absolute path',
      `e2e command bridge not started: ${join(dir, 'missing')} does not exist`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('command bridge: answers with the command’s completion — its result, or its error — in the order commands end', async () => {
  const dir = privateFolder();
  let finishSlow: (v: unknown) => void = () => undefined;
  const ran: [string, unknown[]][] = [];
  const bridge = startCommandBridge(
    { [BRIDGE_ENV]: dir },
    {
      execute: (command, args) => {
        ran.push([command, args]);
        if (command === 'slow') return new Promise((resolve) => (finishSlow = resolve));
        if (command === 'fails') return Promise.reject(new Error('the plan has no axes'));
        return Promise.resolve({ echoed: args, at: undefined });
      },
      revive: (a) => (a && typeof a === 'object' && '$file' in a ? `file:${(a as { $file: string }).$file}` : a),
      log: () => undefined,
    },
  );
  assert.ok(bridge);
  await bridge.listening;
  const c = client(bridge.socketPath);
  try {
    assert.deepEqual(readdirSync(dir), [basename(bridge.socketPath)]);
    assert.match(basename(bridge.socketPath), new RegExp(`^ext-host-${process.pid}-[0-9a-f]{8}\\.sock$`));
    const slow = c.send(1, 'slow');
    // A command that ends later is answered later: the quick one (sent after it) comes back first.
    assert.deepEqual(await c.send(2, 'quick', [{ $file: '/w/a.alls' }, 3]), { id: 2, ok: true, result: { echoed: ['file:/w/a.alls', 3] } });
    assert.deepEqual(c.order, [2]);
    finishSlow({ ran: true });
    assert.deepEqual(await slow, { id: 1, ok: true, result: { ran: true } });
    assert.deepEqual(await c.send(3, 'fails'), { id: 3, ok: false, error: 'the plan has no axes' });
    assert.deepEqual(await c.send(4, ''), { id: 4, ok: false, error: 'the request names no command' });
    assert.deepEqual(c.order, [2, 1, 3, 4]);
    assert.deepEqual(
      ran.map(([command]) => command),
      ['slow', 'quick', 'fails'],
    );
  } finally {
    c.close();
    bridge.dispose();
  }
  assert.deepEqual(readdirSync(dir), [], 'dispose removes the socket');
  rmSync(dir, { recursive: true, force: true });
});

/** Activates the bundle with `env`'s bridge variable; returns the commands it registered and the sockets it listened on. */
async function activateBundle(bridgeDir: string | undefined): Promise<{ registered: string[]; listened: unknown[] }> {
  const registered: string[] = [];
  const listened: unknown[] = [];
  const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
  const listen = Server.prototype.listen;
  const saved = process.env[BRIDGE_ENV];
  const bundle = join(repoRoot, 'dist', 'client.js');
  const names = new Set(Array.from(readFileSync(bundle, 'utf8').matchAll(/\.([A-Za-z_$][\w$]*)/g), (m) => m[1]));
  (Module as unknown as { _load: typeof load })._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return fakeVscode(registered, names);
    const loaded = load.call(this, request, ...rest);
    if (request === 'child_process' || request === 'node:child_process')
      return {
        ...(loaded as object),
        fork: () => {
          throw new Error('no process starts in this test');
        },
        spawn: () => {
          throw new Error('no process starts in this test');
        },
      };
    return loaded;
  };
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    listened.push(args[0]);
    return (listen as (...a: unknown[]) => Server).apply(this, args);
  } as typeof listen;
  if (bridgeDir) process.env[BRIDGE_ENV] = bridgeDir;
  else delete process.env[BRIDGE_ENV];
  const context = {
    subscriptions: [] as { dispose(): unknown }[],
    extensionPath: join(tmpdir(), 'no-such-extension'),
    asAbsolutePath: (p: string) => join(tmpdir(), 'no-such-extension', p),
  };
  try {
    delete require.cache[bundle];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle is loaded at test time, with the stand-in vscode in place
    const ext = require(bundle) as { activate(c: unknown): Promise<void> };
    // Everything up to the language client's start runs before activate's first await; the start
    // itself fails here (no server process may start: fork refuses), which ends activate.
    const context$ = new Proxy(context, { get: (t, p) => (p in t ? t[p as keyof typeof t] : fakeVscode([], [String(p)])[String(p)]) });
    await ext.activate(context$).catch(() => undefined);
    return { registered, listened };
  } finally {
    for (const s of context.subscriptions) {
      try {
        s.dispose();
      } catch {
        // a stand-in subscription
      }
    }
    (Module as unknown as { _load: typeof load })._load = load;
    Server.prototype.listen = listen;
    if (saved === undefined) delete process.env[BRIDGE_ENV];
    else process.env[BRIDGE_ENV] = saved;
  }
}

test('command bridge: the packaged bundle has it only when the runner sets the variable; the manifest contributes nothing for it', async (t) => {
  const reason = skipUnless(existsSync(join(repoRoot, 'dist', 'client.js')), 'dist/client.js (node esbuild.mjs; test/run.mjs builds it)');
  if (reason) return t.skip(reason);
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    activationEvents?: string[];
    contributes: { commands: { command: string }[] };
  };
  assert.deepEqual(
    manifest.contributes.commands.map((c) => c.command).filter((id) => /test|bridge|e2e/i.test(id)),
    [],
  );
  assert.deepEqual(
    (manifest.activationEvents ?? []).filter((e) => /test|bridge|e2e/i.test(e)),
    [],
  );

  const dir = privateFolder();
  try {
    // A user's VS Code: the variable is absent. activate ran past the point where the bridge would start.
    const user = await activateBundle(undefined);
    assert.ok(user.registered.includes('hailo.openOnnxGraph'), `activate registered the commands: ${user.registered.join(', ')}`);
    assert.deepEqual(user.listened, [], 'no socket is opened');
    assert.deepEqual(readdirSync(dir), []);
    // The e2e runner's VS Code (the positive control: this harness sees the bridge when it is there).
    mkdirSync(dir, { recursive: true });
    const e2e = await activateBundle(dir);
    assert.equal(e2e.listened.length, 1);
    assert.match(String(e2e.listened[0]), new RegExp(`^${dir}/ext-host-${process.pid}-[0-9a-f]{8}\\.sock$`));
    assert.deepEqual(
      e2e.registered.filter((id) => !user.registered.includes(id)),
      [],
      'the bridge adds no command',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
