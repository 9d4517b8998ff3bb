// The e2e wait helpers (test/e2e/waits.ts): a state that arrives later is waited for, and one that
// never does fails at its deadline naming what was awaited and the last value seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { MAX_FACTOR, measureLoadFactor } from '../../e2e/loadFactor.mjs';
import { deadlineMs, waitForEqual, waitForMatch, waitUntil } from '../../e2e/waits';

test('e2e waits: a value that settles later is returned once it holds', async () => {
  let reads = 0;
  const value = await waitForEqual('the counter', () => ++reads, 3, { intervalMs: 1 });
  assert.equal(value, 3);
  assert.equal(reads, 3);
});

test('e2e waits: a read that throws is "not yet", and its error is what was last seen', async () => {
  let reads = 0;
  const text = await waitForMatch(
    'the text',
    () => {
      if (++reads < 3) throw new Error('no such element');
      return 'ready now';
    },
    /ready/,
    { intervalMs: 1 },
  );
  assert.equal(text, 'ready now');
  await assert.rejects(
    waitUntil(
      'an element',
      () => {
        throw new Error('no such element\nstack');
      },
      () => true,
      { timeoutMs: 20, intervalMs: 1 },
    ),
    { message: 'timed out after 20 ms waiting for an element; last seen: an error: no such element' },
  );
});

test('e2e waits: past the deadline the failure names the expectation and the last value', async () => {
  // The second read itself outlasts the deadline, so it is the last one on any machine (a count
  // of reads within a few milliseconds was not, on a loaded one).
  let reads = 0;
  const read = async () => {
    if (++reads === 1) return 5;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    return 6;
  };
  await assert.rejects(waitForEqual('the number of turns', read, 0, { timeoutMs: 1000, intervalMs: 1 }), {
    message: 'timed out after 1000 ms waiting for the number of turns to be 0; last seen: 6',
  });
  await assert.rejects(
    waitForMatch('the status', () => 'busy', 'done', { timeoutMs: 10, intervalMs: 1 }),
    {
      message: "timed out after 10 ms waiting for the status to be 'done'; last seen: 'busy'",
    },
  );
});

test('e2e waits: one deadline — the suite setting × steps × the measured load factor (≥ 1)', () => {
  const saved = { base: process.env.HAILO_E2E_DEADLINE_MS, factor: process.env.HAILO_E2E_LOAD_FACTOR };
  try {
    delete process.env.HAILO_E2E_DEADLINE_MS;
    delete process.env.HAILO_E2E_LOAD_FACTOR;
    assert.equal(deadlineMs(), 30_000);
    process.env.HAILO_E2E_LOAD_FACTOR = '2.5';
    assert.equal(deadlineMs(), 75_000);
    assert.equal(deadlineMs(4), 300_000);
    process.env.HAILO_E2E_DEADLINE_MS = '1000';
    assert.equal(deadlineMs(2), 5000);
    // a factor below 1 or not a number is no factor
    process.env.HAILO_E2E_LOAD_FACTOR = '0.2';
    assert.equal(deadlineMs(), 1000);
    process.env.HAILO_E2E_LOAD_FACTOR = 'busy';
    assert.equal(deadlineMs(), 1000);
  } finally {
    for (const [k, v] of [
      ['HAILO_E2E_DEADLINE_MS', saved.base],
      ['HAILO_E2E_LOAD_FACTOR', saved.factor],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test('e2e load factor: with busy processes holding every core, a CPU loop takes longer than its CPU time; the factor stays within 1..8', async () => {
  // Two busy loops per core for the length of the measurement (about a second).
  // Each says so once its loop is about to run: `spawn` fires before node has started, and on a loaded machine the
  // measurement could end before a loop began (contention 1.05 once, under the unit suite's parallel files).
  const busy = Array.from({ length: 2 * availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'process.stdout.write("r");for(;;){}'], { stdio: ['ignore', 'pipe', 'ignore'] }),
  );
  try {
    await Promise.all(busy.map((b) => once(b.stdout!, 'data'))); // running before the measurement
    const m = measureLoadFactor();
    assert.ok(m.contention >= 1.5, `contention ${m.contention.toFixed(2)} with ${busy.length} busy processes`);
    assert.ok(m.factor >= Math.min(MAX_FACTOR, m.contention) - 0.01 && m.factor <= MAX_FACTOR, String(m.factor));
  } finally {
    for (const b of busy) b.kill('SIGKILL');
  }
});
