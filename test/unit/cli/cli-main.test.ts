import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../../server/src/cli/main';
import { captureIO } from '../../fakes/cliIO';

test('cli: no command prints usage and exits 2', async () => {
  const io = captureIO();
  assert.equal(await main([], io), 2);
  assert.match(io.outText, /usage: hailo-tools <command>/);
  assert.match(io.outText, /check/);
});

test('cli: unknown command exits 2 with a message', async () => {
  const io = captureIO();
  assert.equal(await main(['frobnicate'], io), 2);
  assert.match(io.errText, /unknown command 'frobnicate'/);
});
