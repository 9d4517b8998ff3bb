// DeviceClient's request limit is on silence, not on the whole request: a worker that reports
// progress on a request (as `run` does for each phase and every few frames) is not killed however
// long the work takes; a worker that says nothing is stopped at the limit with the timeout sentence;
// and the worker starts in a log folder that does not exist yet.
// The worker here is a stand-in speaking the worker protocol (test/fakes/progressWorker.ts), so the
// client's timers are tested without HailoRT.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceClient, DeviceRequestError } from '../../server/src/processes/device/client';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { progressWorker } from '../fakes/progressWorker';

const dir = mkdtempSync(join(tmpdir(), 'hailo-client-silence-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const client = (workerPath: string, hailortLogDir?: string) =>
  new DeviceClient({
    trust: commandLineTrust('test'),
    workerPath,
    hailortLogDir,
    shim: { shimPath: '/nonexistent/shim.so', libraryPath: '/nonexistent/libhailort.so', hailortVersion: '5.2.0' },
    requestTimeoutMs: 1500,
  });

test('a request whose worker keeps reporting progress outlives the limit (5 s of work, 1.5 s limit)', async () => {
  const c = client(progressWorker(dir, 'progressing', { everyMs: 100, forMs: 5000, answers: true }));
  try {
    assert.deepEqual(await c.hello(), { progress: 'done' });
  } finally {
    c.dispose();
  }
});

test('a silent worker is stopped at the limit with the timeout sentence', async () => {
  const c = client(progressWorker(dir, 'silent', { everyMs: 0, forMs: 60_000, answers: true }));
  const started = Date.now();
  try {
    await assert.rejects(c.hello(), (err: unknown) => {
      assert.ok(err instanceof DeviceRequestError);
      assert.equal(err.error.kind, 'timeout');
      assert.match(err.error.message, /did not answer 'hello' \(nor report progress\) within 1500 ms/);
      return true;
    });
    assert.ok(Date.now() - started < 10_000, 'at the limit, not at the end of the work');
  } finally {
    c.dispose();
  }
});

test("the worker starts in a log folder that does not exist yet (VS Code creates the extension's lazily)", async () => {
  const logs = join(dir, 'not-yet', 'logs');
  const c = client(progressWorker(dir, 'quick', { everyMs: 10, forMs: 50, answers: true }), logs);
  try {
    assert.deepEqual(await c.hello(), { progress: 'done' });
    assert.ok(existsSync(logs));
  } finally {
    c.dispose();
  }
});
