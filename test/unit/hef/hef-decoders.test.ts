// The HEF schema's decoders are generated at build time (scripts/gen-hef-decoders.mjs →
// server/src/core/hef/hefDecoders.generated.js, issue 25's start-up): the committed file must be
// what the schema and the installed protobufjs generate, and every test HEF and every real one in
// ../shared/corpus/hef must decode to what protobufjs' own run-time reflection decodes from the
// schema text — every field of every message, its value (its prototype's default when unset) and
// whether it is set; a body that does not decode throws the same error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { parseContainer } from '../../../server/src/core/hef/container';
import { decodeHefBody, SCHEMA } from '../../../server/src/core/hef/schema';
import { allTestHefs } from '../../helpers/allTestHefs';
import { tempDir } from '../../fakes/fakeHailort';
import { projectRoot } from '../../helpers/projectRoot';
import { sharedPath } from '../../helpers/shared';

test('hef decoders: the committed hefDecoders.generated.js is what the schema and this protobufjs generate', () => {
  const r = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'gen-hef-decoders.mjs'), '--check'], { encoding: 'utf8', cwd: projectRoot });
  assert.equal(r.status, 0, r.stderr + r.stdout);
});

/** What the readers can see of a message: per field of its type, whether it is set and its value (uint64 as a string). */
function observable(type: protobuf.Type, m: Record<string, unknown>): unknown {
  const out: Record<string, unknown> = {};
  for (const f of type.fieldsArray) {
    f.resolve();
    const own = Object.prototype.hasOwnProperty.call(m, f.name);
    const value = m[f.name];
    const sub = f.resolvedType instanceof protobuf.Type ? f.resolvedType : undefined;
    const show = (v: unknown): unknown =>
      sub && v
        ? observable(sub, v as Record<string, unknown>)
        : v && typeof v === 'object' && 'low' in v
          ? `long ${(v as protobuf.Long).toString()}${(v as protobuf.Long).unsigned ? ' unsigned' : ''}`
          : v;
    out[f.name] = { own, value: Array.isArray(value) ? value.map(show) : show(value) };
  }
  return out;
}

test('hef decoders: every test HEF and every corpus HEF decodes as protobufjs decodes the schema text at run time', async () => {
  const scratch = tempDir('hef-decoders');
  const hefs = await allTestHefs(scratch).finally(() => rmSync(scratch, { recursive: true, force: true }));
  const corpus = sharedPath('corpus', 'hef');
  if (corpus) {
    for (const f of readdirSync(corpus).filter((n) => n.endsWith('.hef'))) hefs.push({ name: f, bytes: new Uint8Array(readFileSync(join(corpus, f))) });
  }
  const reference = protobuf.parse(SCHEMA, { keepCase: true }).root.lookupType('hefview.Hef');
  let decoded = 0;
  for (const hef of hefs) {
    const { container } = parseContainer(hef.bytes.subarray(0, 56), hef.bytes.length);
    if (!container || container.protoEnd > hef.bytes.length || container.protoEnd <= container.protoStart) continue;
    const body = hef.bytes.subarray(container.protoStart, container.protoEnd);
    let expected: unknown;
    try {
      expected = observable(reference, reference.decode(body) as unknown as Record<string, unknown>);
    } catch (err) {
      assert.throws(() => decodeHefBody(body), { message: (err as Error).message }, hef.name);
      continue;
    }
    const message = decodeHefBody(body) as Record<string, unknown>;
    assert.deepEqual(observable(reference, message), expected, hef.name);
    assert.ok(message instanceof protobuf.Message, hef.name);
    decoded++;
  }
  assert.ok(decoded >= 30, `only ${decoded} HEF bodies decoded`);
});
