// `hailo-tools check` run from another folder than the detector's (issue 34): the NMS config a
// script names is read when it lies inside the git work tree of the script (or of the current
// folder) — found by its `.git` entry, no git process — and when it is outside every folder the
// run may read, the summary line says a file was skipped and why, and `--strict` exits 3.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { gitWorkTreeOf } from '../../../server/src/core/common/workTree';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

let base: string;
before(() => {
  base = mkdtempSync(join(tmpdir(), 'hailo-check-anywhere-'));
  const custom = join(repoRoot, 'test', 'fixtures', 'nms', 'custom');
  // Two copies of one detector — the script in models/, its config in configs/ — one in a git work
  // tree (a `.git` folder), one in a plain folder; the user runs `check` from elsewhere/.
  for (const [name, git] of [
    ['project', true],
    ['plain', false],
  ] as const) {
    const top = join(base, name);
    mkdirSync(join(top, 'models'), { recursive: true });
    mkdirSync(join(top, 'configs'));
    if (git) mkdirSync(join(top, '.git'));
    for (const f of ['custom.har', 'custom.hef', 'labels.json']) copyFileSync(join(custom, f), join(top, 'models', f));
    copyFileSync(join(custom, 'custom_nms_config.json'), join(top, 'configs', 'custom_nms_config.json'));
    writeFileSync(
      join(top, 'models', 'custom.alls'),
      'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])\nnms_postprocess("../configs/custom_nms_config.json", meta_arch=yolov8, engine=cpu)\n',
    );
  }
  mkdirSync(join(base, 'elsewhere'));
});
after(() => rmSync(base, { recursive: true, force: true }));

async function checkFrom(cwd: string, ...args: string[]) {
  const io = captureIO();
  const saved = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(['check', ...args], io);
    return { code, out: io.outText, err: io.errText };
  } finally {
    process.chdir(saved);
  }
}

interface Report {
  files: { path: string; diagnostics: { line: number; code: string }[] }[];
  skipped: { note: string; reason: string }[];
  summary: { files: number; errors: number; warnings: number; skipped: number };
}

test('gitWorkTreeOf: the nearest folder above with a .git entry (folder or file), else undefined', () => {
  assert.equal(gitWorkTreeOf(join(base, 'project', 'models', 'custom.alls')), join(base, 'project'));
  assert.equal(gitWorkTreeOf(join(base, 'plain', 'models')), undefined);
  // A linked worktree or submodule has a `.git` file naming its git dir.
  const linked = join(base, 'linked');
  mkdirSync(join(linked, 'sub'), { recursive: true });
  writeFileSync(join(linked, '.git'), 'gitdir: /somewhere/.git/worktrees/linked\n');
  assert.equal(gitWorkTreeOf(join(linked, 'sub')), linked);
});

test('check from another folder reads the config the script names inside its git work tree', async () => {
  const r = await checkFrom(join(base, 'elsewhere'), '--json', '--strict', join(base, 'project', 'models', 'custom.alls'));
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '', 'nothing skipped, nothing noted');
  const doc = JSON.parse(r.out) as Report;
  // What reading the config finds (as test/unit/nms/nms-cli.test.ts finds it beside the script):
  // the zoo's 80 classes for a 1-class model, on the config's line 9 and the script's line 2.
  const cfg = doc.files.find((f) => f.path.endsWith('custom_nms_config.json'));
  assert.deepEqual(
    cfg?.diagnostics.map((d) => [d.line, d.code]),
    [[9, 'nms/classes']],
  );
  const script = doc.files.find((f) => f.path.endsWith('custom.alls'));
  assert.ok(script?.diagnostics.some((d) => d.line === 2 && d.code === 'nms/config-mismatch'));
  assert.deepEqual(doc.skipped, []);
  assert.equal(doc.summary.skipped, 0);
});

test('check from inside the work tree reads a config outside the named folder', async () => {
  mkdirSync(join(base, 'project', 'tools'), { recursive: true });
  const r = await checkFrom(join(base, 'project', 'tools'), '--json', '../models');
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out) as Report;
  assert.ok(doc.files.some((f) => f.path.endsWith('custom_nms_config.json')));
  assert.equal(doc.summary.skipped, 0);
});

test('a config outside every folder the run may read: the summary line says it was skipped and why; --strict exits 3', async () => {
  const script = join(base, 'plain', 'models', 'custom.alls');
  const r = await checkFrom(join(base, 'elsewhere'), script);
  assert.equal(r.code, 0, 'skipped alone is not a failure without --strict');
  const summary = r.out.trimEnd().split('\n').at(-1)!;
  assert.equal(
    summary,
    // (the script, and labels.json: the HEF beside it has 80 classes, the labels 1)
    '2 files checked: 0 errors, 1 warning, 0 info/hints; 1 file skipped, not read (1 outside the folders named, the current folder and their git work trees) — see the note on stderr',
  );
  assert.match(
    r.err,
    /^hailo-tools check: note: The nms_postprocess path '\.\.\/configs\/custom_nms_config\.json' named in .*custom\.alls was not read: it leads/m,
  );

  const strict = await checkFrom(join(base, 'elsewhere'), '--strict', '--json', script);
  assert.equal(strict.code, 3);
  const doc = JSON.parse(strict.out) as Report;
  assert.equal(doc.summary.skipped, 1);
  assert.equal(doc.skipped[0].reason, 'outside the folders named, the current folder and their git work trees');
  assert.match(doc.skipped[0].note, /custom_nms_config\.json' named in .*custom\.alls was not read/);
});

test('check --help documents --strict and its exit code', async () => {
  const r = await checkFrom(base, '--help');
  assert.match(r.out, /--strict +a skipped file .*exit 3/);
  assert.match(r.out, /3 with --strict: no errors, but a file was skipped/);
});
