// The e2e wait helpers (test/e2e/waits.ts): a state that arrives later is waited for, and one that
// never does fails at its deadline naming what was awaited and the last value seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForEqual, waitForMatch, waitUntil } from '../e2e/waits';

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
  let reads = 0;
  await assert.rejects(
    waitForEqual('the number of turns', () => (++reads > 2 ? 6 : 5), 0, { timeoutMs: 30, intervalMs: 1 }),
    {
      message: 'timed out after 30 ms waiting for the number of turns to be 0; last seen: 6',
    },
  );
  await assert.rejects(
    waitForMatch('the status', () => 'busy', 'done', { timeoutMs: 10, intervalMs: 1 }),
    {
      message: "timed out after 10 ms waiting for the status to be 'done'; last seen: 'busy'",
    },
  );
});
