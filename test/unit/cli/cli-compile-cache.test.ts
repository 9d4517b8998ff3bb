// The CLI's own V8 code cache (server/src/cli/compileCache.ts), used where Node has no compile
// cache of its own (< 22.1): a sub-command's bundle is compiled once, its cache written at exit and
// taken by the next run; a damaged cache is refused by V8 and rewritten; a folder others may write
// to, or a link, is never used. Where Node has module.enableCompileCache, Node's own is used instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as nodeModule from 'node:module';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/shared';

const nodeHasItsOwn = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const examples = join(repoRoot, 'examples', 'good');

function check(cacheDir: string, extraEnv: Record<string, string> = {}) {
  const inherited = { ...process.env };
  delete inherited.NODE_DISABLE_COMPILE_CACHE;
  const env = { ...inherited, NODE_COMPILE_CACHE: cacheDir, NODE_DEBUG: 'hailo_compile_cache', ...extraEnv };
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'check', examples], { encoding: 'utf8', env, timeout: 60_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /5 files checked: 0 errors/);
  return r;
}

const caches = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8'));

test(
  'compile cache: written at the first run, taken by the next, refused and rewritten when damaged; the output never changes',
  { skip: nodeHasItsOwn && "Node's own compile cache is used" },
  () => {
    const tmp = mkdtempSync(join(tmpdir(), 'hailo-cc-'));
    try {
      const dir = join(tmp, 'cache');
      // An earlier write of the same bundle file (same device and inode) and another install's bundle.
      const bundle = statSync(join(repoRoot, 'dist', 'cli-check.js'), { bigint: true });
      const earlier = `cli-check-v20.0.0-x64-${bundle.dev}-${bundle.ino}-1-2-3.v8`;
      const otherInstall = `cli-check-v20.0.0-x64-${bundle.dev}-${bundle.ino + 1n}-1-2-3.v8`;
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, earlier), 'old');
      writeFileSync(join(dir, otherInstall), 'other');
      const first = check(dir);
      assert.match(first.stderr, /cli-check\.js: no cache yet; compiled from source/);
      assert.match(first.stderr, /cli-check\.js: cache written/);
      const [file, ...more] = caches(dir).filter((f) => f !== otherInstall);
      assert.deepEqual(more, [], `the earlier write's cache is gone: ${caches(dir).join(', ')}`);
      assert.ok(caches(dir).includes(otherInstall), "another install's cache stays");
      assert.match(file, /^cli-check-.*\.v8$/);
      assert.equal(statSync(join(dir, file)).mode & 0o777, 0o600, 'readable by this user only');
      assert.ok(statSync(join(dir, file)).size > 100_000, 'the cache holds the compiled bundle');

      const second = check(dir);
      assert.match(second.stderr, /cli-check\.js: cache accepted/);
      assert.doesNotMatch(second.stderr, /cache written/);
      assert.equal(second.stdout, first.stdout);

      // Same length, other bytes: V8's own check refuses it; the run compiles from source and rewrites it.
      const size = statSync(join(dir, file)).size;
      writeFileSync(join(dir, file), Buffer.alloc(size, 0x5a));
      const damaged = check(dir);
      assert.match(damaged.stderr, /cli-check\.js: cache rejected by V8; compiled from source/);
      assert.match(damaged.stderr, /cli-check\.js: cache written/);
      assert.notDeepEqual(readFileSync(join(dir, file)), Buffer.alloc(size, 0x5a));
      assert.equal(damaged.stdout, first.stdout);

      const off = check(dir, { NODE_DISABLE_COMPILE_CACHE: '1' });
      assert.match(off.stderr, /cli-check\.js: no cache \(NODE_DISABLE_COMPILE_CACHE is set\)/);
      assert.equal(off.stdout, first.stdout);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);

test(
  'compile cache: a folder others may write to, or a link, is not used',
  { skip: (nodeHasItsOwn && "Node's own compile cache is used") || (process.platform === 'win32' && 'POSIX modes') },
  () => {
    const tmp = mkdtempSync(join(tmpdir(), 'hailo-cc-'));
    try {
      const open = join(tmp, 'open');
      mkdirSync(open);
      chmodSync(open, 0o777);
      const r = check(open);
      assert.match(r.stderr, /cli-check\.js: no cache \(.*open is writable by others \(mode 777\)\)/);
      assert.deepEqual(caches(open), []);

      const real = join(tmp, 'real');
      mkdirSync(real, { mode: 0o700 });
      symlinkSync(real, join(tmp, 'link'));
      const viaLink = check(join(tmp, 'link'));
      assert.match(viaLink.stderr, /cli-check\.js: no cache \(.*link is not a directory\)/);
      assert.deepEqual(caches(real), []);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);

test(
  "compile cache: where Node has module.enableCompileCache, Node's own is used and ours stays out",
  { skip: !nodeHasItsOwn && 'Node < 22.1 has no compile cache of its own' },
  () => {
    const tmp = mkdtempSync(join(tmpdir(), 'hailo-cc-'));
    try {
      const r = check(join(tmp, 'cache'));
      assert.match(r.stderr, /cli-check\.js: no cache \(Node's own compile cache is on\)/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);
