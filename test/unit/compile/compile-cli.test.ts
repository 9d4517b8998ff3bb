// `hailo-tools compile` end to end against the fake docker (which runs the real driver under
// python3 with the fake hailo_sdk_client): the JSON document (the dfc-log document + outputs,
// container, hef), exit codes 0/1/2/130, Ctrl+C, and DFC failures landing on the .alls line or
// ONNX node that caused them. The expected diagnostics of the DFC log fixtures are the log
// reader's hand-written expectations (test/fixtures/dfc/<case>/expected.json), so a compile of a
// run that prints that log must put each error at the same place `hailo-tools dfc-log` does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { fileSource, readHef, readResource } from '../../../server/src/core/hef';
import { FAKE_DOCKER, fakeDocker, scenario, type FakeDocker, NEEDS_PYTHON } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const DFC_FIXTURES = join(repoRoot, 'test', 'fixtures', 'dfc');
const TINY = join(repoRoot, 'examples', 'model', 'tinycnn.onnx');
const TINY_HAR = join(repoRoot, 'examples', 'model', 'tinycnn_hailo_model.har');

async function cli(fd: FakeDocker, ...args: string[]) {
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  const io = captureIO();
  const code = await main(['compile', '--docker', FAKE_DOCKER, ...args], io);
  return { code, out: io.outText, err: io.errText };
}

function temp(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-compile-cli-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const REPORT_KEYS = ['outcome', 'failedStage', 'stages', 'dfcVersion', 'hailortVersion', 'hwArch', 'network', 'summary', 'recommendedEndNodes', 'diagnostics'];

test('compile --json: the dfc-log document plus outputs and container; exit 0; the console saved as <net>.dfc.log', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  const ws = temp();
  try {
    copyFileSync(TINY, join(ws.dir, 'tinycnn.onnx'));
    const r = await cli(fd, '--json', '--out', join(ws.dir, 'build'), join(ws.dir, 'tinycnn.onnx'));
    assert.equal(r.code, 0, r.err + r.out);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j).slice(0, REPORT_KEYS.length), REPORT_KEYS);
    assert.equal(j.outcome, 'success');
    assert.equal(j.failedStage, null);
    // Stage times as the replayed log prints them (test/fixtures/compile/logs/success-dfc5.log).
    assert.deepEqual(
      j.stages.map((s: { name: string; status: string }) => [s.name, s.status]),
      [
        ['parse', 'ok'],
        ['optimize', 'ok'],
        ['compile', 'ok'],
      ],
    );
    assert.equal(j.stages[0].seconds, 0.21);
    assert.equal(j.stages[1].seconds, 13.9);
    assert.equal(j.summary.allocationSeconds, 5.12);
    assert.equal(j.summary.compilationSeconds, 8.7);
    const build = join(ws.dir, 'build');
    assert.deepEqual(j.outputs, { har: join(build, 'tinycnn.har'), optimizedHar: join(build, 'tinycnn_optimized.har'), hef: join(build, 'tinycnn.hef') });
    assert.equal(j.container.removed, true);
    assert.match(j.container.name, /^hailo-compile-tinycnn-/);
    assert.equal(j.container.image, 'hailo_ai_sw_suite_2026-04:1');
    assert.equal(j.container.transfer, 'mount');
    assert.deepEqual({ intact: j.hef.intact, hailoConfig: j.hef.hailoConfig, bytes: j.hef.bytes }, { intact: true, hailoConfig: 'not-requested', bytes: 6224 });
    assert.equal(j.calibration, 'random');
    assert.ok(j.diagnostics.some((d: { code: string }) => d.code === 'compile/random-calibration'));
    assert.deepEqual(readdirSync(build).sort(), ['tinycnn.dfc.log', 'tinycnn.har', 'tinycnn.hef', 'tinycnn_optimized.har']);
    assert.match(readFileSync(join(build, 'tinycnn.dfc.log'), 'utf8'), /Translation completed on ONNX model tinycnn[\s\S]*tinycnn Successful Compilation/);
    // Live stage lines on stderr.
    assert.match(r.err, /parse …\n.*parse ok \(0\.21 s\)\n[\s\S]*optimize ok[\s\S]*compile ok/);
    assert.deepEqual(fd.containers(), []);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test(
  'compile: the text names the files the run saved (in the container, as its log prints them) beside those it copied out, as the JSON does',
  { skip: NEEDS_PYTHON },
  async () => {
    const fd = fakeDocker();
    const ws = temp();
    try {
      copyFileSync(TINY, join(ws.dir, 'tinycnn.onnx'));
      const build = join(ws.dir, 'build');
      const j = JSON.parse((await cli(fd, '--json', '--out', build, join(ws.dir, 'tinycnn.onnx'))).out);
      // The driver saves each stage's HAR under a `.partial.` name in the staging folder (driver/hailo_compile.py
      // partial_path) and the DFC logs `Saved HAR to: <path>` — a path inside the container (the fake docker runs
      // the driver on the host, so here it is the host's staging folder).
      assert.deepEqual(
        j.saved.map((f: { kind: string; path: string }) => [f.kind, basename(f.path)]),
        [
          ['har', '.partial.tinycnn.har'],
          ['har', '.partial.tinycnn_optimized.har'],
        ],
      );
      const inContainer = j.saved.map((f: { path: string }) => f.path);
      const r = await cli(fd, '--out', build, join(ws.dir, 'tinycnn.onnx'));
      assert.equal(r.code, 0, r.err + r.out);
      const lines = r.out.split('\n');
      const at = lines.findIndex((l) => l.startsWith('outputs: har '));
      assert.ok(at >= 0, r.out);
      assert.deepEqual(lines.slice(at, at + 3), [
        `outputs: har ${join(build, 'tinycnn.har')}`,
        `         optimized har ${join(build, 'tinycnn_optimized.har')}`,
        `         hef ${join(build, 'tinycnn.hef')}`,
      ]);
      // The staging folder's name differs per run: the same two files, at the log lines the JSON gave.
      assert.match(lines[at + 3], new RegExp(`^saved: {3}HAR /\\S+/\\.partial\\.tinycnn\\.har \\(in the container; log line ${j.saved[0].logLine}\\)$`));
      assert.match(lines[at + 4], new RegExp(`^ {9}HAR /\\S+/\\.partial\\.tinycnn_optimized\\.har \\(in the container; log line ${j.saved[1].logLine}\\)$`));
      // Said once: the dfc-log report's own saved block is not repeated above.
      assert.equal(r.out.split('.partial.tinycnn.har').length, 2, r.out);
      assert.ok(
        inContainer.every((p: string) => p.includes('/.hailo-compile-tinycnn-')),
        inContainer.join(),
      );
    } finally {
      ws.cleanup();
      fd.cleanup();
    }
  },
);

test('compile embeds hailo-config.json beside the model; the HEF engine checks it and the mtmd contract', { skip: NEEDS_PYTHON }, async () => {
  const ws = temp();
  const fd = fakeDocker();
  try {
    // The config the example encoder embeds, so "same bytes" can be checked against a real HEF.
    const src = await fileSource(join(repoRoot, 'examples', 'qwen3vl-vision-encoder.hef'));
    const embedded = await readResource(src, (await readHef(src)).externalResources, 'hailo-config.json');
    await src.close();
    assert.ok('bytes' in embedded);
    copyFileSync(TINY, join(ws.dir, 'tinycnn.onnx'));
    writeFileSync(join(ws.dir, 'hailo-config.json'), embedded.bytes);
    const ok = JSON.parse((await cli(fd, '--json', join(ws.dir, 'tinycnn.onnx'))).out);
    assert.deepEqual({ hailoConfig: ok.hef.hailoConfig, contract: ok.hef.contract }, { hailoConfig: 'embedded', contract: { pass: true, failed: [] } });
    // An older DFC without add_external_file: the HEF lacks the file; said, with how sure we are.
    writeFileSync(
      join(fd.dir, 'old-dfc.json'),
      JSON.stringify({ log: join(repoRoot, 'test', 'fixtures', 'compile', 'logs', 'success-dfc5.log'), externalFile: false }),
    );
    fd.configure({ scenario: join(fd.dir, 'old-dfc.json') });
    const r = await cli(fd, '--json', join(ws.dir, 'tinycnn.onnx'));
    const j = JSON.parse(r.out);
    assert.equal(j.hef.hailoConfig, 'missing');
    assert.equal(j.hef.contract.pass, false);
    assert.ok(
      j.hef.contract.failed.some((f: string) => f.startsWith('config-embedded')),
      JSON.stringify(j.hef.contract),
    );
    const d = j.diagnostics.find((x: { code: string }) => x.code === 'compile/config-not-embedded');
    assert.ok(d, JSON.stringify(j.diagnostics));
    assert.equal(d.path, join(ws.dir, 'hailo-config.json'));
    assert.equal(d.confidence, 'medium');
    assert.match(d.message, /HEF is missing required external resource 'hailo-config\.json'.*seen only in GenAI pipelines/);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

interface Expected {
  outcome: string;
  failedStage: string | null;
  diagnostics: Record<string, unknown>[];
}

/**
 * A compile whose DFC prints a fixture's log: the scenario fails at the method that printed it.
 * Returns the compile's JSON and the fixture's expectation.
 */
async function compileFixture(fd: FakeDocker, ws: string, name: string, failAt: string | null, model: { from: string; as: string }, alls?: string) {
  const dir = join(DFC_FIXTURES, name);
  const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected;
  const scenarioFile = join(ws, `${name}.scenario.json`);
  writeFileSync(scenarioFile, JSON.stringify({ log: join(dir, 'run.log'), ...(failAt ? { failAt } : {}) }));
  fd.configure({ scenario: scenarioFile });
  copyFileSync(model.from, join(ws, model.as));
  const args = ['--json', '--out', join(ws, `out-${name}`)];
  if (alls) {
    copyFileSync(join(dir, alls), join(ws, `${name}.alls`));
    args.push('--alls', join(ws, `${name}.alls`));
  }
  const r = await cli(fd, ...args, join(ws, model.as));
  return { r, j: JSON.parse(r.out), expected };
}

/** Compares the places and codes of the DFC's diagnostics (the compile adds its own `compile/*` ones). */
function samePlaces(name: string, got: Record<string, unknown>[], want: Record<string, unknown>[], paths: Record<string, string>) {
  const dfc = got.filter((d) => String(d.code).startsWith('dfc/'));
  assert.equal(dfc.length, want.length, `${name}: ${dfc.map((d) => `${d.code}@${d.line}`).join(', ')}`);
  want.forEach((w, i) => {
    for (const k of ['code', 'severity', 'line', 'column', 'endLine', 'endColumn', 'node'] as const) {
      if (k in w && !(k === 'line' && w.path === 'run.log')) assert.deepEqual(dfc[i][k], w[k], `${name}: diagnostic ${i} ${k}`);
    }
    if (typeof w.path === 'string' && paths[w.path]) assert.equal(dfc[i].path, paths[w.path], `${name}: diagnostic ${i} path`);
    for (const s of (w.messageIncludes as string[] | undefined) ?? [])
      assert.ok(String(dfc[i].message).includes(s), `${name}: ${dfc[i].message} mentions ${s}`);
  });
}

test('a model-script error lands on its .alls line and column (exit 1); the parsed HAR input is untouched', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  const ws = temp();
  try {
    const { r, j, expected } = await compileFixture(
      fd,
      ws.dir,
      'model-script-syntax',
      'load_model_script',
      { from: TINY_HAR, as: 'mobilenet.har' },
      'model.alls',
    );
    assert.equal(r.code, 1, r.err);
    assert.equal(j.outcome, expected.outcome);
    assert.equal(j.failedStage, expected.failedStage);
    samePlaces('model-script-syntax', j.diagnostics, expected.diagnostics, { 'model.alls': join(ws.dir, 'model-script-syntax.alls') });
    assert.deepEqual(j.outputs, { har: null, optimizedHar: null, hef: null });
    assert.deepEqual(readFileSync(join(ws.dir, 'mobilenet.har')), readFileSync(TINY_HAR));
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('unsupported ONNX nodes land on their nodes in the graph view; the recommended end nodes come along', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  const ws = temp();
  try {
    const name = 'parse-unsupported-shuffle';
    const { r, j, expected } = await compileFixture(fd, ws.dir, name, 'translate_onnx_model', {
      from: join(DFC_FIXTURES, name, 'model.onnx'),
      as: 'model.onnx',
    });
    assert.equal(r.code, 1, r.err);
    assert.equal(j.failedStage, 'parse');
    samePlaces(name, j.diagnostics, expected.diagnostics, { 'model.onnx': join(ws.dir, 'model.onnx') });
    assert.deepEqual(j.recommendedEndNodes, (expected as unknown as { recommendedEndNodes: string[] }).recommendedEndNodes);
    assert.deepEqual(j.outputs, { har: null, optimizedHar: null, hef: null });
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test("the a16_w4 optimize crash lands on the script line that asks for it; the parse stage's HAR is delivered", { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  const ws = temp();
  try {
    const name = 'wraparound-a16w4';
    const { r, j, expected } = await compileFixture(fd, ws.dir, name, 'optimize', { from: TINY, as: 'tinycnn.onnx' }, 'model.alls');
    assert.equal(r.code, 1, r.err);
    assert.equal(j.failedStage, 'optimize');
    samePlaces(name, j.diagnostics, expected.diagnostics, { 'model.alls': join(ws.dir, `${name}.alls`) });
    assert.equal(j.outputs.har, join(ws.dir, `out-${name}`, 'tinycnn.har'));
    assert.equal(j.outputs.hef, null);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test(
  "the container's exit status reaches the log reader: a DFC that exits 1 in optimize with no error line is read as failed there (issue 20)",
  { skip: NEEDS_PYTHON },
  async () => {
    const fd = fakeDocker();
    const ws = temp();
    try {
      // real-killed-137's log (a public Hailo-8L run that stops in the Statistics Collector): the fake
      // prints its optimize part and exits 1 without a traceback, as a DFC whose error went elsewhere.
      const { r, j } = await compileFixture(fd, ws.dir, 'real-killed-137', 'optimize', { from: TINY, as: 'tinycnn.onnx' });
      assert.equal(r.code, 1, r.err);
      assert.deepEqual([j.outcome, j.failedStage], ['failed', 'optimize']);
      const d = j.diagnostics.find((x: { code: string }) => x.code === 'dfc/no-error-in-log');
      assert.ok(d, JSON.stringify(j.diagnostics.map((x: { code: string }) => x.code)));
      assert.match(d.message, /exit status 1 during optimize/);
    } finally {
      ws.cleanup();
      fd.cleanup();
    }
  },
);

test('docker refusing is failedStage "docker" with the fixing setting; usage errors exit 2', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ images: [] });
  const ws = temp();
  try {
    copyFileSync(TINY, join(ws.dir, 'm.onnx'));
    const r = await cli(fd, '--json', join(ws.dir, 'm.onnx'));
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out);
    assert.equal(j.outcome, 'failed');
    assert.equal(j.failedStage, 'docker');
    assert.equal(j.container, null);
    const d = j.diagnostics.find((x: { code: string }) => x.code === 'dfc/docker');
    assert.match(d.message, /^Docker image 'hailo_ai_sw_suite_2026-04:1' is not loaded/);
    assert.deepEqual(d.fix, { kind: 'setting', key: 'hailo.dfc.image' });

    for (const args of [[], ['--gpus', 'some', 'm.onnx'], ['--bogus', 'm.onnx'], ['a.onnx', 'b.onnx']]) {
      const u = await cli(fd, ...args);
      assert.equal(u.code, 2, args.join(' '));
      assert.match(u.err, /^hailo-tools compile: .*\n\nusage: hailo-tools compile/);
    }
    const missing = await cli(fd, '--json', join(ws.dir, 'nope.onnx'));
    assert.equal(missing.code, 2);
    assert.match(JSON.parse(missing.out).error, /^The model '.*nope\.onnx' does not exist\.$/);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('Ctrl+C: the real CLI stops and removes the container, leaves no output, exits 130', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ scenario: scenario('slow-calibration') });
  const ws = temp();
  try {
    copyFileSync(TINY, join(ws.dir, 'tinycnn.onnx'));
    writeFileSync(join(ws.dir, 'tinycnn.hef'), 'previous good HEF');
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'bin', 'hailo-tools.js'), 'compile', '--json', '--docker', FAKE_DOCKER, join(ws.dir, 'tinycnn.onnx')],
      {
        env: { ...process.env, HAILO_FAKE_DOCKER_STATE: fd.dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      if (/optimize: Calibration/.test(err) && child.exitCode === null && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 130, err);
    assert.match(err, /interrupted: stopping and removing the container/);
    const j = JSON.parse(out);
    assert.equal(j.outcome, 'killed');
    // Our own stop, in the stage it stopped: never the memory limit's 137.
    const kill = j.diagnostics.filter((d: { code: string }) => /^dfc\/(stopped|memory-killed|interrupted)$/.test(d.code));
    assert.deepEqual(
      kill.map((d: { code: string; severity: string }) => [d.code, d.severity]),
      [['dfc/stopped', 'info']],
    );
    assert.deepEqual(fd.containers(), []);
    assert.ok(!fd.calls().some((c) => c.method === 'compile'), 'the DFC was stopped before compile');
    assert.deepEqual(readdirSync(ws.dir).sort(), ['tinycnn.dfc.log', 'tinycnn.hef', 'tinycnn.onnx']);
    assert.equal(readFileSync(join(ws.dir, 'tinycnn.hef'), 'utf8'), 'previous good HEF');
    assert.ok(!existsSync(join(ws.dir, 'tinycnn.har')));
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});
