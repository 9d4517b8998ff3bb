// One pre-run gate, three callers: for the same HEF, the same simulated device and the same HailoRT
// (the fake libhailort at 5.2.0 and 4.20.0, the real shim built against it), Run on Device in the
// extension (client/src/device/runOnDevice.ts, with a stand-in `vscode` and its connection's scan on
// the real worker), `hailo-tools run` and the worker itself (DeviceClient.run) give the same verdict:
// the same refusal (rule, kind, status, sentence), or all go on to run (the worker's report carries
// the gate's warning). A caller that bypasses the gate is caught two ways: a refusal then lacks the
// gate's rule, or the run goes ahead where the gate refuses. The last test holds the rules' callers
// to the gate module alone, so a fourth copy of the decision is seen before it can drift.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, join } from 'node:path';
import { DeviceClient, DeviceRequestError } from '../../server/src/processes/device/client';
import { commandLineTrust } from '../../server/src/core/common/trust';
import type { DeviceError, RunReport } from '../../server/src/core/device/protocol';
import { failureMessage } from '../../client/src/device/failures';
import { deviceSetup, type DeviceSetup } from '../fakes/fakeHailort';
import { repoRoot } from '../helpers/shared';
import { buildHef } from '../helpers/hefBuilder';
import { largeFrameHefSpec } from '../helpers/inlineHefs';

const WORKER = join(repoRoot, 'dist', 'deviceWorker.js');
import { sourceFiles, stripComments } from '../helpers/securityScan';

let h5: DeviceSetup;
let h4: DeviceSetup;
before(async () => {
  h5 = await deviceSetup('gate-agree-5', '5.2.0');
  h4 = await deviceSetup('gate-agree-4', '4.20.0');
});
after(() => {
  h5?.cleanup();
  h4?.cleanup();
});

function sysfs(setup: DeviceSetup, name: string, module: string | undefined): string {
  const root = join(setup.dir, name);
  mkdirSync(join(root, 'sys', 'module', module ?? ''), { recursive: true });
  return root;
}

/** What one caller decided: refused with this error, or went on to run (with these notes). */
type Outcome = { refused: DeviceError } | { ran: string[] };
const refused = (e: DeviceError): Outcome => ({ refused: e });

async function viaWorker(setup: DeviceSetup, hef: string, env: Record<string, string>): Promise<Outcome> {
  const c = new DeviceClient({ trust: commandLineTrust('gate-agreement'), workerPath: WORKER, shim: setup.shim, env: setup.cliEnv(env) });
  try {
    const report = await c.run({ hef, input: { kind: 'random' }, frames: 2, format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 5000 });
    return { ran: report.notes ?? [] };
  } catch (err) {
    if (err instanceof DeviceRequestError) return refused(err.error);
    throw err;
  } finally {
    c.dispose();
  }
}

function viaCli(setup: DeviceSetup, hef: string, env: Record<string, string>): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'run', '--json', '--frames', '2', hef], {
      env: { ...process.env, ...setup.cliEnv(env) },
      cwd: setup.dir,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      try {
        const doc = JSON.parse(stdout) as { error?: DeviceError } & Partial<RunReport>;
        done(doc.error ? refused(doc.error) : { ran: doc.notes ?? [] });
      } catch {
        fail(new Error(`hailo-tools run exited ${code}: ${stdout}${stderr}`));
      }
    });
  });
}

// ---- the extension: Run on Device with a stand-in `vscode` ----

/** What the stand-in saw: error messages shown, log lines, whether the run request was made. */
interface ClientSeen {
  shown: string[];
  logged: string[];
  ranWith?: string;
}

class Uri {
  readonly scheme = 'file';
  constructor(readonly fsPath: string) {}
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return `file://${this.fsPath}`;
  }
  static file(p: string): Uri {
    return new Uri(p);
  }
  static joinPath(u: Uri, ...parts: string[]): Uri {
    return new Uri(join(u.fsPath, ...parts));
  }
}

/** Every member exists and does nothing (module-level `vscode.X` uses while the bundle loads). */
function nothing(): unknown {
  const f = function () {
    return nothing();
  };
  return new Proxy(f, {
    get: (_t, p) => (p === 'then' ? undefined : p === Symbol.toPrimitive ? () => '' : nothing()),
    construct: () => nothing() as object,
  });
}

/** The stand-in is loaded once (the client's modules keep it); each case gets its own record. */
let seen: ClientSeen = { shown: [], logged: [] };

function standInVscode(): unknown {
  const noop = { dispose() {} };
  const overrides: Record<string, unknown> = {
    Uri,
    ProgressLocation: { Notification: 15 },
    workspace: new Proxy(
      {
        isTrusted: true,
        workspaceFolders: undefined,
        getConfiguration: () => ({ get: () => undefined }),
        getWorkspaceFolder: () => undefined,
        onDidChangeConfiguration: () => noop,
      },
      { get: (t, p) => (p in t ? (t as Record<string | symbol, unknown>)[p] : nothing()) },
    ),
    window: new Proxy(
      {
        withProgress: (_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
          task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => noop }),
        showErrorMessage: (text: string) => {
          seen.shown.push(text);
          return Promise.resolve(undefined);
        },
      },
      { get: (t, p) => (p in t ? (t as Record<string | symbol, unknown>)[p] : nothing()) },
    ),
  };
  return new Proxy(overrides, { get: (t, p) => (p in t ? t[p as string] : nothing()) });
}

const RAN = 'stand-in: the run request was made';

async function viaClient(setup: DeviceSetup, hef: string, env: Record<string, string>): Promise<Outcome> {
  seen = { shown: [], logged: [] };
  const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
  const vscode = standInVscode();
  (Module as unknown as { _load: typeof load })._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return vscode;
    return load.call(this, request, ...rest);
  };
  const stderr: string[] = [];
  const worker = new DeviceClient({
    trust: commandLineTrust('gate-agreement'),
    workerPath: WORKER,
    shim: setup.shim,
    env: setup.cliEnv(env),
    onEvent: (e) => void (e.type === 'stderr' && stderr.push(e.line)),
  });
  try {
    const { RunOnDevice } = await import('../../client/src/device/runOnDevice');
    const log = new Proxy({} as Record<string, unknown>, {
      get: (_t, p) => (message: string) => seen.logged.push(`${String(p)}: ${message}`),
    });
    // The extension's connection (client/src/device/deviceConnection.ts) as RunOnDevice uses it: scan and run.
    const connection = {
      scan: () => worker.scan(),
      run: (_trust: unknown, options: { hef: string }) => {
        seen.ranWith = options.hef;
        return Promise.reject(new DeviceRequestError({ kind: 'hailort-error', status: null, name: 'x', message: RAN, sentence: RAN }));
      },
    };
    const panels = { showProgress() {}, dropEmpty() {}, show() {} };
    const context = { workspaceState: { get: () => undefined, update: () => Promise.resolve() }, subscriptions: [], extensionPath: repoRoot };
    const runner = new RunOnDevice(context as never, log as never, connection as never, panels as never);
    await runner.run(Uri.file(hef), { prompt: false });
    // showDeviceFailure is not awaited by the command: let it show its message.
    await new Promise((r) => setImmediate(r));
  } finally {
    (Module as unknown as { _load: typeof load })._load = load;
    worker.dispose();
  }
  if (seen.ranWith) return { ran: [] };
  assert.equal(seen.shown.length, 1, `the extension showed ${JSON.stringify(seen.shown)}; logged ${JSON.stringify(seen.logged)}; worker ${stderr.join('\n')}`);
  // The command logs the refusal as `[kind status] message (gate rule)`; it shows failureMessage(error).text.
  const line = seen.logged.find((l) => l.startsWith('error: device:'))!;
  const m = /\[([a-z-]+)(?: (\d+))?\] .*?(?: \(gate (\S+)\))?$/.exec(line);
  assert.ok(m, line);
  return {
    refused: {
      kind: m[1] as DeviceError['kind'],
      status: m[2] ? Number(m[2]) : null,
      name: '',
      message: '',
      sentence: seen.shown[0],
      gate: m[3] as DeviceError['gate'],
    },
  };
}

// ---- the cases ----

interface Case {
  name: string;
  setup: () => DeviceSetup;
  hef: () => string;
  env?: (s: DeviceSetup) => Record<string, string>;
  /** The gate's verdict: its rule when it refuses, else 'runs' / 'runs-slower'. */
  rule: string;
}

const withDriver = (s: DeviceSetup, module = 'hailo1x_pci') => ({ HAILO_TOOLS_SYSFS_ROOT: sysfs(s, `sys-${module}`, module) });
const CASES: Case[] = [
  { name: 'a Hailo-1X HEF on the Hailo-10H', setup: () => h5, hef: () => h5.hefs.classifier, rule: 'runs' },
  { name: 'a Hailo-8 HEF (hw_arch 0) on the Hailo-10H', setup: () => h5, hef: () => h5.hefs.hailo8, rule: 'arch-mismatch' },
  { name: 'a flipped protobuf byte (5.2.0 answers 91)', setup: () => h5, hef: () => h5.hefs.corrupted, rule: 'hailort-refuses' },
  { name: 'boundary edges without buffer_indices (libhailort crashes)', setup: () => h5, hef: () => h5.hefs.crashes, rule: 'hailort-crashes' },
  { name: 'config words cut (5.2.0 would open it)', setup: () => h5, hef: () => join(h5.dir, 'half.hef'), rule: 'config-damaged' },
  { name: 'a missing path', setup: () => h5, hef: () => join(h5.dir, 'nope.hef'), rule: 'hef-unreadable' },
  { name: 'an output frame over deviceFrameBytes', setup: () => h5, hef: () => join(h5.dir, 'big.hef'), rule: 'frame-too-large' },
  // 5.x's Device::create answers a Hailo-8 with 79 (pcie_device.cpp), so the scan cannot identify it:
  // the identify failure is the answer (runtime-mismatch), before any architecture verdict.
  {
    name: 'HailoRT 5.2 on a Hailo-8 (identify answers 79)',
    setup: () => h5,
    hef: () => h5.hefs.classifier,
    env: () => ({ FAKE_HAILORT_ARCH: 'HAILO8' }),
    rule: 'device-unidentified',
  },
  {
    name: 'no device, driver loaded',
    setup: () => h5,
    hef: () => h5.hefs.classifier,
    env: (s) => ({ FAKE_HAILORT_DEVICES: '0', ...withDriver(s) }),
    rule: 'no-device',
  },
  {
    name: 'no device, no driver',
    setup: () => h5,
    hef: () => h5.hefs.classifier,
    env: (s) => ({ FAKE_HAILORT_DEVICES: '0', HAILO_TOOLS_SYSFS_ROOT: sysfs(s, 'sys-none', undefined) }),
    rule: 'driver-missing',
  },
  {
    name: 'a device HailoRT cannot open (86)',
    setup: () => h5,
    hef: () => h5.hefs.classifier,
    env: (s) => ({ FAKE_HAILORT_FAULT: 'driver-ioctl', ...withDriver(s) }),
    rule: 'device-unidentified',
  },
  {
    name: 'HailoRT 4.20: a Hailo-8 HEF on a Hailo-8L',
    setup: () => h4,
    hef: () => h4.hefs.hailo8V1,
    env: () => ({ FAKE_HAILORT_ARCH: 'HAILO8L' }),
    rule: 'arch-mismatch',
  },
  {
    name: 'HailoRT 4.20: a Hailo-8L HEF on a Hailo-8',
    setup: () => h4,
    hef: () => h4.hefs.hailo8lV1,
    env: () => ({ FAKE_HAILORT_ARCH: 'HAILO8' }),
    rule: 'runs-slower',
  },
];

test('the extension, the CLI and the worker give the gate’s verdict, the same one, for the same HEF, device and HailoRT', async () => {
  const whole = readFileSync(h5.hefs.classifier);
  writeFileSync(join(h5.dir, 'half.hef'), whole.subarray(0, whole.length - 64));
  writeFileSync(join(h5.dir, 'big.hef'), await buildHef(largeFrameHefSpec('output', 10)));
  const wrong: string[] = [];
  for (const c of CASES) {
    const setup = c.setup();
    const env = { ...withDriver(setup, setup === h4 ? 'hailo_pci' : 'hailo1x_pci'), ...(c.env?.(setup) ?? {}) };
    const outcomes = {
      extension: await viaClient(setup, c.hef(), env),
      cli: await viaCli(setup, c.hef(), env),
      worker: await viaWorker(setup, c.hef(), env),
    };
    for (const [who, o] of Object.entries(outcomes)) {
      const got = 'refused' in o ? (o.refused.gate ?? `a refusal the gate did not make (${o.refused.kind}: ${o.refused.sentence})`) : 'ran';
      const expected = c.rule === 'runs' || c.rule === 'runs-slower' ? 'ran' : c.rule;
      if (got !== expected) wrong.push(`${c.name}: the ${who} ${got}, the gate says ${c.rule}`);
    }
    const { extension, cli, worker } = outcomes;
    if ('refused' in cli && 'refused' in worker && 'refused' in extension) {
      if (JSON.stringify(cli.refused) !== JSON.stringify(worker.refused))
        wrong.push(`${c.name}: CLI ${JSON.stringify(cli.refused)} ≠ worker ${JSON.stringify(worker.refused)}`);
      const shown = failureMessage(worker.refused).text;
      if (extension.refused.sentence !== shown)
        wrong.push(`${c.name}: the extension showed "${extension.refused.sentence}", the worker's error reads "${shown}"`);
      if (extension.refused.kind !== worker.refused.kind || extension.refused.status !== worker.refused.status)
        wrong.push(
          `${c.name}: the extension's ${extension.refused.kind} ${extension.refused.status} ≠ the worker's ${worker.refused.kind} ${worker.refused.status}`,
        );
    }
    if ('ran' in cli && 'ran' in worker) {
      const slower = (notes: string[]) => notes.some((n) => /lower performance/.test(n));
      if (slower(cli.ran) !== (c.rule === 'runs-slower') || slower(worker.ran) !== (c.rule === 'runs-slower'))
        wrong.push(`${c.name}: the notes ${JSON.stringify(cli.ran)} / ${JSON.stringify(worker.ran)} do not carry the gate's ${c.rule}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the gate’s rules are called only by the gate: no other module decides whether a HEF may run', () => {
  // The rule functions of hailortVersions.ts and hefGate.ts; the doctor's setup report lists each HEF
  // beside each device (its own finding codes, not a run decision), so it may ask hefRunsOnDevice.
  const RULES = /\b(hefRunsOnDevice|runtimeOpensDevice|hefRefusal|verdictForRuntime)\s*\(/;
  const ALLOWED: Record<string, string[]> = {
    'server/src/core/device/runGate.ts': ['hefRunsOnDevice', 'runtimeOpensDevice', 'hefRefusal', 'verdictForRuntime'],
    'server/src/core/device/hefGate.ts': ['verdictForRuntime'],
    'server/src/core/doctor/rules.ts': ['hefRunsOnDevice'],
  };
  const offenders: string[] = [];
  for (const f of sourceFiles(repoRoot, ['server/src', 'client/src'])) {
    const text = stripComments(f.text);
    for (const line of text.split('\n')) {
      const m = RULES.exec(line);
      if (!m || /^\s*(export )?function /.test(line)) continue;
      if (!(ALLOWED[f.path] ?? []).includes(m[1])) offenders.push(`${f.path}: ${line.trim()}`);
    }
  }
  assert.deepEqual(offenders, []);
  // The callers each ask the gate.
  for (const [file, call] of [
    ['client/src/device/runOnDevice.ts', 'gateBeforeRun('],
    ['server/src/cli/device.ts', 'gateBeforeRun('],
    ['server/src/processes/device/worker/hailortSession.ts', 'gateBeforeRun('],
  ]) {
    assert.ok(stripComments(readFileSync(join(repoRoot, file), 'utf8')).includes(call), `${basename(file)} asks the gate`);
  }
});
