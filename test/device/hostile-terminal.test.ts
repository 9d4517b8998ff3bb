// Issue 18, the terminal: `run` and `devices` printed HEF stream names, paths, error text and a
// `.npy` descr with raw ESC, OSC-52 (clipboard write), CSI, C1 (U+009B is a one-byte CSI), bidi
// overrides and NUL, and `run --json` left C1 and bidi raw (JSON.stringify does). Every byte the
// CLI writes is read here from a real child process on the fake libhailort; the names come from a
// facts file whose stream names are hostile (the fake device answers them as HailoRT would) and
// from file names, which may hold any byte but `/` and NUL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deviceSetup, type DeviceSetup } from '../fakes/fakeHailort';
import { repoRoot } from '../helpers/shared';

/** What must never reach a terminal raw: C0 but newline/tab, DEL, C1, bidi and line separators. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const EVIL = '\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b31m\u202eexe.';

let setup: DeviceSetup;
before(async () => {
  setup = await deviceSetup('hostile-terminal');
});
after(() => setup?.cleanup());

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), ...args], { env: { ...process.env, ...env }, cwd: setup.dir });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function assertNoRawControl(what: string, text: string): void {
  const m = RAW_CONTROL.exec(text);
  assert.equal(
    m,
    null,
    `${what} wrote U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')} raw at ${m?.index}: ${JSON.stringify(text.slice(Math.max(0, (m?.index ?? 0) - 40), (m?.index ?? 0) + 20))}`,
  );
}

test('run: hostile stream names and HEF path are printed escaped, in text and in JSON', async () => {
  const hef = join(setup.dir, `model${EVIL}hef`);
  copyFileSync(setup.hefs.classifier, hef);
  // The fake device names the streams as the facts say: the classifier's output gets a hostile name.
  const facts = join(setup.dir, 'evil-facts.tsv');
  writeFileSync(facts, readFileSync(setup.facts, 'utf8').replace(/efficientnet_lite0\/fc1/g, `efficientnet_lite0/fc1${EVIL}`));
  const env = setup.cliEnv({ FAKE_HAILORT_FACTS: facts });
  const text = await cli(['run', '--frames', '5', hef], env);
  assert.equal(text.code, 0, text.stderr);
  assertNoRawControl('run (stdout)', text.stdout);
  assertNoRawControl('run (stderr)', text.stderr);
  assert.ok(text.stdout.includes('fc1\\u001b]52;c;cHduZWQ=\\u0007\\u001b[2J\\u009b31m\\u202eexe.'), text.stdout);
  assert.ok(text.stdout.includes(`HEF: ${join(setup.dir, 'model')}\\u001b]52`), 'the path is escaped too');

  const json = await cli(['run', '--json', '--frames', '5', hef], env);
  assert.equal(json.code, 0, json.stderr);
  assertNoRawControl('run --json', json.stdout);
  const doc = JSON.parse(json.stdout);
  assert.ok(
    doc.outputs.some((o: { name: string }) => o.name === `efficientnet_lite0/fc1${EVIL}`),
    'the JSON still carries the exact name (as \\u escapes)',
  );
});

test('run and devices: error sentences with hostile paths and a hostile .npy descr are escaped', async () => {
  const env = setup.cliEnv();
  const npy = join(setup.dir, 'evil.npy');
  const dict = `{'descr': '<f4${EVIL}', 'fortran_order': False, 'shape': (1, 224, 224, 3), }`;
  const header = dict.padEnd(118, ' ') + '\n';
  writeFileSync(
    npy,
    Buffer.concat([
      Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]),
      Buffer.from([header.length & 0xff, header.length >> 8]),
      Buffer.from(header, 'latin1'),
    ]),
  );
  const bad = await cli(['run', '--frames', '5', '--input', npy, setup.hefs.classifier], env);
  assert.equal(bad.code, 2, bad.stdout + bad.stderr);
  assertNoRawControl('run --input evil.npy', bad.stderr);
  assert.match(bad.stderr, /\\u001b\]52/);
  const missing = await cli(['run', '--frames', '5', '--input', `gone${EVIL}png`, setup.hefs.classifier], env);
  assert.equal(missing.code, 2);
  assertNoRawControl('run --input (missing)', missing.stderr);
  const json = await cli(['run', '--json', '--frames', '5', join(setup.dir, `missing${EVIL}hef`)], env);
  assert.equal(json.code, 2);
  assertNoRawControl('run --json (error)', json.stdout + json.stderr);
  const devices = await cli(['devices', '--hailort', join(setup.dir, `nowhere${EVIL}`)], { HAILO_TOOLS_SHIM: '' });
  assert.equal(devices.code, 2);
  assertNoRawControl('devices --hailort', devices.stderr);
  assert.match(devices.stderr, /nowhere\\u001b\]52/);
});
