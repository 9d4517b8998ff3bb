// Issue 18, paths: every read and write a file or a setting can steer stays inside the folder the
// user opened or the model lives in, links resolved (common/fileAccess.ts). Each case is the
// audit's, rebuilt here with links and FIFOs in temporary folders: a cloned repository that ships
// `<net>.dfc.log -> ~/.bashrc`, `hailo-config.json -> a private file` (sent by `docker cp` to a
// remote docker host and embedded into the HEF), a calibration set or an output folder linked out
// of the folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAccessError } from '../../../server/src/core/common/fileAccess';
import { FileRoots } from '../../../server/src/core/common/confined';
import { resolveInputs } from '../../../server/src/processes/compile/inputs';
import { main } from '../../../server/src/cli/main';
import { FAKE_DOCKER, fakeDocker, NEEDS_PYTHON, type FakeDocker } from '../../fakes/fakeDocker';
import { makeFifo } from '../../helpers/hostile';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const TINY = join(repoRoot, 'examples', 'model', 'tinycnn.onnx');

/** A workspace folder `ws/` and, beside it, a folder `home/` standing for everything outside it. */
function layout(): { root: string; ws: string; home: string; secret: string; cleanup(): void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hailo-paths-')));
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  const secret = join(home, 'secret');
  writeFileSync(secret, 'PRIVATE KEY\n');
  return { root, ws, home, secret, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

test('FileRoots.resolve: a link out of the folder is refused in one sentence; links inside and plain paths pass', () => {
  const l = layout();
  try {
    const ws = FileRoots.of([l.ws]);
    writeFileSync(join(l.ws, 'a.json'), '{}');
    symlinkSync(l.secret, join(l.ws, 'out.json'));
    symlinkSync('a.json', join(l.ws, 'in.json'));
    symlinkSync(l.home, join(l.ws, 'data'));
    assert.equal(ws.resolve(join(l.ws, 'a.json')), join(l.ws, 'a.json'));
    assert.equal(ws.resolve(join(l.ws, 'in.json')), join(l.ws, 'a.json'));
    assert.throws(
      () => ws.resolve(join(l.ws, 'out.json')),
      (e: unknown) =>
        e instanceof FileAccessError &&
        e.code === 'outside' &&
        e.message ===
          `'${join(l.ws, 'out.json')}' leads outside the folder '${l.ws}' (it resolves to '${l.secret}'); not read: put the file inside the folder, or give its real path yourself`,
    );
    // Through a linked folder, and for a file that does not exist yet (an output).
    assert.throws(() => ws.resolve(join(l.ws, 'data', 'secret')), /leads outside/);
    assert.throws(() => ws.resolve(join(l.ws, 'data', 'new.log'), 'written'), /it resolves to '.*home\/new\.log'\); not written/);
    assert.equal(ws.resolve(join(l.ws, 'no', 'such', 'file')), join(l.ws, 'no', 'such', 'file'));
    // A dangling link is not a missing file: where it points is what counts.
    symlinkSync(join(l.home, 'later'), join(l.ws, 'dangling'));
    assert.throws(() => ws.resolve(join(l.ws, 'dangling')), FileAccessError);
  } finally {
    l.cleanup();
  }
});

test('FileRoots.openForWriteSync never writes through a link, a FIFO or a hard link; writeSync replaces a file whole', (t) => {
  const l = layout();
  try {
    const ws = FileRoots.of([l.ws]);
    const link = join(l.ws, 'net.dfc.log');
    symlinkSync(l.secret, link);
    assert.throws(() => ws.openForWriteSync(link), /net\.dfc\.log' is a symbolic link; not written through it/);
    assert.equal(readFileSync(l.secret, 'utf8'), 'PRIVATE KEY\n', 'the link target is untouched');
    const hard = join(l.ws, 'hard.log');
    linkSync(l.secret, hard);
    assert.throws(() => ws.openForWriteSync(hard), /has 2 hard links; not written/);
    assert.equal(readFileSync(l.secret, 'utf8'), 'PRIVATE KEY\n', 'not truncated through the hard link');
    const plain = join(l.ws, 'plain.log');
    writeFileSync(plain, 'old content that is longer');
    const fd = ws.openForWriteSync(plain);
    writeSync(fd, 'new');
    closeSync(fd);
    assert.equal(readFileSync(plain, 'utf8'), 'new content that is longer', 'opened in place (a log is truncated by createWriteStream)');
    ws.writeSync(plain, 'new');
    assert.equal(readFileSync(plain, 'utf8'), 'new');
    // Write-then-rename replaces a link instead of following it.
    const replaced = join(l.ws, 'replaced.json');
    symlinkSync(l.secret, replaced);
    ws.writeSync(replaced, 'mine');
    assert.equal(readFileSync(replaced, 'utf8'), 'mine');
    assert.equal(readFileSync(l.secret, 'utf8'), 'PRIVATE KEY\n');
    const fifo = join(l.ws, 'fifo.log');
    if (!makeFifo(fifo)) {
      t.diagnostic('NOTE: mkfifo is not available; the FIFO case is not checked');
      return;
    }
    const started = Date.now();
    assert.throws(() => ws.openForWriteSync(fifo), /FIFO \(named pipe\), not a regular file; not written/);
    assert.ok(Date.now() - started < 2000, 'refused at once, not blocked');
  } finally {
    l.cleanup();
  }
});

test('FileRoots.walk: a link to / or a loop is never entered, a file link out of the root is skipped, each real file is listed once', () => {
  const l = layout();
  try {
    writeFileSync(join(l.home, 'outside.alls'), 'x\n');
    mkdirSync(join(l.ws, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(l.ws, 'a.alls'), 'a\n');
    writeFileSync(join(l.ws, 'sub', 'deeper', 'b.alls'), 'b\n');
    symlinkSync('/', join(l.ws, 'root'));
    symlinkSync('.', join(l.ws, 'loop'));
    symlinkSync(l.home, join(l.ws, 'home'));
    symlinkSync(join(l.home, 'outside.alls'), join(l.ws, 'linked-out.alls'));
    symlinkSync('a.alls', join(l.ws, 'same-as-a.alls'));
    linkSync(join(l.ws, 'a.alls'), join(l.ws, 'hard-a.alls'));
    for (let i = 0; i < 200; i++) symlinkSync(join(l.ws, 'a.alls'), join(l.ws, 'sub', `copy${i}.alls`));
    const started = Date.now();
    const r = FileRoots.of([l.ws]).walk(l.ws, { wantFile: (n) => n.endsWith('.alls') });
    assert.ok(Date.now() - started < 5000);
    assert.deepEqual(
      r.files.map((f) => f.slice(l.ws.length + 1)),
      ['a.alls', 'sub/deeper/b.alls'],
    );
    assert.deepEqual(r.skipped, [`${join(l.ws, 'linked-out.alls')}: a link to '${join(l.home, 'outside.alls')}', outside '${l.ws}'; not read`]);
  } finally {
    l.cleanup();
  }
});

test('compile inputs: a hailo-config.json, calibration set, script or output folder linked out of the folder is refused; named paths are not', () => {
  const l = layout();
  try {
    const model = join(l.ws, 'tinycnn.onnx');
    copyFileSync(TINY, model);
    const base = { model, hwArch: 'hailo10h', folders: [l.ws] };
    assert.equal(typeof resolveInputs(base), 'object');
    symlinkSync(l.secret, join(l.ws, 'hailo-config.json'));
    assert.equal(
      resolveInputs(base),
      `The hailo-config.json '${join(l.ws, 'hailo-config.json')}' leads outside the folder '${l.ws}' (it resolves to '${l.secret}'); not read: put the file inside the folder, or give its real path yourself.`,
    );
    rmSync(join(l.ws, 'hailo-config.json'));
    const npy = join(l.home, 'calib.npy');
    writeFileSync(npy, 'x');
    symlinkSync(npy, join(l.ws, 'calib.npy'));
    assert.match(
      String(resolveInputs({ ...base, calibration: join(l.ws, 'calib.npy') })),
      /^The calibration set '.*ws\/calib\.npy' leads outside .*; not read/,
    );
    symlinkSync(l.secret, join(l.ws, 'model.alls'));
    assert.match(String(resolveInputs({ ...base, modelScript: join(l.ws, 'model.alls') })), /^The model script .* leads outside/);
    symlinkSync(l.home, join(l.ws, 'build'));
    assert.match(String(resolveInputs({ ...base, outDir: join(l.ws, 'build') })), /^The output folder '.*ws\/build' leads outside .*home'\); not written/);
    // The user named a file in another folder (a CLI argument, a dialog pick): its folder is theirs.
    const named = resolveInputs({ ...base, calibration: npy, folders: [l.ws, l.home] });
    assert.equal(typeof named, 'object', String(named));
    // A link inside the folder resolves to its target for the container (mounted/packed: the real file).
    writeFileSync(join(l.ws, 'real-calib.npy'), 'x');
    symlinkSync('real-calib.npy', join(l.ws, 'inside.npy'));
    const inside = resolveInputs({ ...base, calibration: join(l.ws, 'inside.npy') });
    assert.ok(typeof inside === 'object');
    assert.equal(inside.realOf(join(l.ws, 'inside.npy')), join(l.ws, 'real-calib.npy'));
    assert.equal(inside.inContainer(join(l.ws, 'inside.npy')), '/tmp/hailo-tools/model/real-calib.npy');
  } finally {
    l.cleanup();
  }
});

async function cli(fd: FakeDocker, ...args: string[]) {
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  const io = captureIO();
  const code = await main(['compile', '--docker', FAKE_DOCKER, ...args], io);
  return { code, out: io.outText, err: io.errText };
}

test('compile: a <net>.dfc.log linked to a file outside is never written through; the compile still succeeds and says so', { skip: NEEDS_PYTHON }, async () => {
  const l = layout();
  const fd = fakeDocker();
  try {
    copyFileSync(TINY, join(l.ws, 'tinycnn.onnx'));
    symlinkSync(l.secret, join(l.ws, 'tinycnn.dfc.log'));
    const r = await cli(fd, '--json', join(l.ws, 'tinycnn.onnx'));
    assert.equal(r.code, 0, r.err + r.out);
    assert.equal(readFileSync(l.secret, 'utf8'), 'PRIVATE KEY\n', 'the file behind the link is untouched');
    const j = JSON.parse(r.out);
    assert.equal(j.log, null);
    assert.deepEqual(
      j.notes.filter((n: string) => /log/.test(n)),
      [
        `The DFC log was not saved: '${join(l.ws, 'tinycnn.dfc.log')}' is a symbolic link; not written through it: remove the link (or choose another output folder).`,
      ],
    );
    assert.ok(j.outputs.hef, 'the HEF was still delivered');
  } finally {
    l.cleanup();
    fd.cleanup();
  }
});

test('compile on a remote docker context: a linked hailo-config.json or calibration set never reaches docker cp', { skip: NEEDS_PYTHON }, async () => {
  const l = layout();
  const fd = fakeDocker({ contexts: { default: 'unix:///var/run/docker.sock', 'gpu-box': 'ssh://dev@gpu-box' } });
  try {
    copyFileSync(TINY, join(l.ws, 'tinycnn.onnx'));
    symlinkSync(l.secret, join(l.ws, 'hailo-config.json'));
    const r = await cli(fd, '--context', 'gpu-box', join(l.ws, 'tinycnn.onnx'));
    assert.equal(r.code, 2, r.err + r.out);
    assert.match(
      r.err,
      /^hailo-tools compile: The hailo-config\.json '.*' leads outside the folders? .* \(it resolves to '.*home\/secret'\); not read: .*\.\n$/,
    );
    assert.deepEqual(fd.argv(), [], 'docker was never called');
    rmSync(join(l.ws, 'hailo-config.json'));
    const npy = join(l.home, 'calib.npy');
    writeFileSync(npy, 'x');
    symlinkSync(npy, join(l.ws, 'calib.npy'));
    const c = await cli(fd, '--context', 'gpu-box', '--calib', join(l.ws, 'calib.npy'), join(l.ws, 'tinycnn.onnx'));
    assert.equal(c.code, 2);
    assert.match(c.err, /The calibration set '.*ws\/calib\.npy' leads outside/);
    assert.deepEqual(fd.argv(), []);
    assert.deepEqual(readdirSync(l.ws).sort(), ['calib.npy', 'tinycnn.onnx'], 'nothing written');
  } finally {
    l.cleanup();
    fd.cleanup();
  }
});

test('check DIR does not follow folder links and leaves out scripts linked from outside (with a note)', async () => {
  const l = layout();
  try {
    const good = 'normalization1 = normalization([0, 0, 0], [255, 255, 255])\n';
    writeFileSync(join(l.ws, 'a.alls'), good);
    mkdirSync(join(l.home, 'private'));
    writeFileSync(join(l.home, 'private', 'b.alls'), good);
    writeFileSync(join(l.home, 'c.alls'), good);
    symlinkSync(join(l.home, 'private'), join(l.ws, 'linked-folder'));
    symlinkSync(join(l.home, 'c.alls'), join(l.ws, 'linked.alls'));
    symlinkSync('.', join(l.ws, 'loop'));
    const io = captureIO();
    const code = await main(['check', '--json', l.ws], io);
    assert.equal(code, 0, io.errText);
    const j = JSON.parse(io.outText);
    assert.deepEqual(
      j.files.map((f: { path: string }) => f.path),
      [join(l.ws, 'a.alls')],
    );
    assert.equal(io.errText, `hailo-tools check: note: ${join(l.ws, 'linked.alls')}: a link to '${join(l.home, 'c.alls')}', outside '${l.ws}'; not read\n`);
  } finally {
    l.cleanup();
  }
});

test('nms_postprocess paths: no variable is expanded and no file outside the folder is probed; inside, a missing config is still found', async () => {
  const l = layout();
  const saved = process.env.HAILO_TEST_OUTSIDE;
  try {
    writeFileSync(join(l.home, 'exists.json'), '{}');
    process.env.HAILO_TEST_OUTSIDE = l.home;
    const script = (path: string) => `nms_postprocess("${path}", meta_arch=yolov8, engine=cpu)\n`;
    const cases = {
      'var-exists.alls': script('${HAILO_TEST_OUTSIDE}/exists.json'),
      'var-missing.alls': script('${HAILO_TEST_OUTSIDE}/missing.json'),
      'abs-exists.alls': script(join(l.home, 'exists.json')),
      'abs-missing.alls': script(join(l.home, 'missing.json')),
      'up-exists.alls': script('../home/exists.json'),
      'up-missing.alls': script('../home/missing.json'),
      'inside-missing.alls': script('configs/missing.json'),
    };
    for (const [name, text] of Object.entries(cases)) writeFileSync(join(l.ws, name), text);
    const io = captureIO();
    const cwd = process.cwd();
    process.chdir(l.ws); // the folder the user opened
    try {
      await main(['check', '--json', l.ws], io);
    } finally {
      process.chdir(cwd);
    }
    const j = JSON.parse(io.outText) as { files: { path: string; diagnostics: { code: string }[] }[] };
    const codes = (name: string) =>
      j.files
        .find((f) => f.path === join(l.ws, name))!
        .diagnostics.map((d) => d.code)
        .sort();
    // An existing and a missing file outside give the same answer: nothing to learn from the warning.
    for (const kind of ['var', 'abs', 'up']) assert.deepEqual(codes(`${kind}-exists.alls`), codes(`${kind}-missing.alls`), kind);
    assert.ok(!codes('abs-missing.alls').includes('alls/nms-config-not-found'));
    assert.ok(codes('inside-missing.alls').includes('alls/nms-config-not-found'), 'a missing config inside the folder is still reported');
    // Each skipped path is noted on stderr, saying why — the same sentence shape whether the file exists.
    const notes = io.errText.split('\n').filter((line) => line.includes('nms_postprocess path'));
    assert.equal(notes.length, 6, io.errText);
    for (const name of ['var-exists.alls', 'var-missing.alls']) {
      assert.ok(
        notes.some((n) => n.includes(`named in ${join(l.ws, name)} was not read: environment variables are never expanded`)),
        name,
      );
    }
    for (const name of ['abs-exists.alls', 'abs-missing.alls', 'up-exists.alls', 'up-missing.alls']) {
      assert.ok(
        notes.some((n) => n.includes(`named in ${join(l.ws, name)} was not read: it leads (links resolved) outside the opened folders`)),
        name,
      );
    }
    assert.ok(notes.every((n) => n.startsWith('hailo-tools check: note: The nms_postprocess path ')));
  } finally {
    if (saved === undefined) delete process.env.HAILO_TEST_OUTSIDE;
    else process.env.HAILO_TEST_OUTSIDE = saved;
    l.cleanup();
  }
});
