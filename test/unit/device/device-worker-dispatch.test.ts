// The device worker's dispatch (server/src/processes/device/worker/dispatch.ts) against its method
// table: every method `WorkerMethods` declares in core/device/protocol.ts (read from the source with
// the TypeScript compiler, not from the table) has a handler that reaches the worker's services; a
// request for a method the table lacks, or a handler's exception, is answered with one sentence and
// never thrown across the process boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { dispatch, workerHandlers, type IncomingRequest } from '../../../server/src/processes/device/worker/dispatch';
import { DeviceFailure } from '../../../server/src/processes/device/worker/hailortSession';
import { errorFromKind } from '../../../server/src/core/device/errors';
import type { WorkerResponse } from '../../../server/src/core/device/protocol';
import { repoRoot } from '../../helpers/shared';

/** The member names of `interface WorkerMethods` as protocol.ts declares them. */
function declaredMethods(): string[] {
  const file = join(repoRoot, 'server', 'src', 'core', 'device', 'protocol.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const names: string[] = [];
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'WorkerMethods') {
      for (const m of node.members) if (m.name && ts.isIdentifier(m.name)) names.push(m.name.text);
    }
  });
  return names;
}

/** A stand-in service: every call answers which method of which service it reached, with its arguments. */
const recorder = (service: string) =>
  new Proxy({} as Record<string, unknown>, {
    get:
      (_t, name) =>
      (...args: unknown[]) => ({ service, method: String(name), args }),
  });

const handlers = () => workerHandlers(recorder('session') as never, recorder('chat') as never, recorder('speech') as never);
const ask = (req: Partial<IncomingRequest>, h = handlers()): Promise<WorkerResponse> =>
  dispatch(h, undefined, { id: 7, params: {}, ...req } as IncomingRequest, () => {});

test('worker dispatch: the table has a handler for exactly the methods WorkerMethods declares, and each reaches a service', async () => {
  const declared = declaredMethods();
  assert.ok(declared.length >= 19, `protocol.ts declares ${declared.length} methods`);
  assert.deepEqual(Object.keys(handlers()).sort(), [...declared].sort());
  const reached: Record<string, string> = {};
  for (const method of declared) {
    const r = await ask({ method, params: { handle: 3, session: 4, name: 'n', inputs: {}, base64: 'b', text: 't', hef: 'x.hef' } });
    assert.equal(r.ok, true, `${method}: ${JSON.stringify(r)}`);
    if (r.ok) {
      const { service, method: called } = r.result as { service: string; method: string };
      reached[method] = `${service}.${called}`;
    }
  }
  // Where each request goes (the worker's services: HailortSession, ChatService, SpeechService).
  assert.equal(reached.open, 'session.openModel');
  assert.equal(reached.run, 'session.run');
  assert.equal(reached.chatOpen, 'chat.open');
  assert.equal(reached.transcribe, 'speech.transcribe');
  assert.equal(new Set(Object.values(reached)).size, declared.length, 'two methods reach the same call');
});

test('worker dispatch: params and progress reach the handler as sent', async () => {
  const r = await ask({ method: 'chatLoad', params: { session: 9, base64: 'QUJD' } });
  assert.deepEqual(r.ok && r.result, { service: 'chat', method: 'load', args: [9, 'QUJD'] });
  const phases: string[] = [];
  const h = handlers();
  const run = await dispatch(h, undefined, { id: 1, method: 'run', params: { hef: 'a.hef' } }, (phase) => phases.push(phase));
  const args = (run.ok && (run.result as { args: unknown[] }).args) || [];
  assert.deepEqual(args[0], { hef: 'a.hef' });
  (args[1] as (p: string) => void)('latency');
  assert.deepEqual(phases, ['latency']);
});

test('worker dispatch: an unknown method is one sentence in an error reply, never a throw', async () => {
  for (const method of ['nope', 'toString', '__proto__', 'constructor', 42, undefined, null, 'x'.repeat(5000)]) {
    const r = await ask({ method });
    assert.equal(r.ok, false, String(method));
    if (!r.ok) {
      assert.equal(r.id, 7);
      assert.match(
        r.error.sentence,
        /^The device worker has no request .+: the extension and its worker come from different builds; reinstall the extension\.$/,
      );
      assert.ok(r.error.sentence.length < 300, 'the sentence quotes at most a bounded part of the name');
    }
  }
});

test('worker dispatch: a handler that throws is answered, a DeviceFailure with its own error; no worker: the startup error for every request', async () => {
  const failing = {
    ...handlers(),
    scan: () => {
      throw new DeviceFailure(errorFromKind('no-device', 'scan found nothing'));
    },
    hello: () => {
      throw new TypeError('boom');
    },
  };
  const scan = await ask({ method: 'scan' }, failing);
  assert.equal(!scan.ok && scan.error.kind, 'no-device');
  const hello = await ask({ method: 'hello' }, failing);
  assert.equal(!hello.ok && hello.error.kind, 'hailort-error');
  assert.match(!hello.ok ? hello.error.message : '', /^hello: TypeError: boom/);
  const missing = errorFromKind('hailort-missing', 'cannot load the HailoRT bridge');
  const r = await dispatch(undefined, missing, { id: 2, method: 'scan', params: {} }, () => {});
  assert.deepEqual(r, { id: 2, ok: false, error: missing });
});
