// Our verdict ("what HailoRT 5.1–5.2 does at Hef::create") against what a real libhailort 5.2.0
// answered: every corpus HEF and the 108 damaged copies of ../shared/corpus/hef/libhailort-5.2.0
// (mutants.tsv, made byte-exactly as its README says). Expected values are the real library's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { bufferSource, readHef } from '../../server/src/hef';
import { RUNTIME_LINES, verdictFor } from '../../server/src/hef/verdict';
import type { HefReport } from '../../server/src/hef';
import { sharedPath, SKIP_NO_SHARED } from '../helpers/shared';

const dir = sharedPath('corpus', 'hef');
const real = sharedPath('corpus', 'hef', 'libhailort-5.2.0');
const skip = dir && real ? false : SKIP_NO_SHARED;
const LINE_5_2 = RUNTIME_LINES.find((l) => l.id === '5.1-5.2')!;

export function mutant(b: Buffer, mutation: string, parameter: string): Buffer {
  if (mutation === 'truncate') return b.subarray(0, Number(parameter));
  if (mutation === 'append') return Buffer.concat([b, Buffer.from([0])]);
  const c = Buffer.from(b);
  if (mutation === 'xor-ff') c[Number(parameter)] ^= 0xff;
  else if (mutation === 'set-byte') {
    const [o, v] = parameter.split('=');
    c[Number(o)] = Number(v);
  } else if (mutation === 'set-version') c.writeUInt32BE(Number(parameter), 4);
  else throw new Error(`unknown mutation ${mutation}`);
  return c;
}

export interface MutantRow {
  source: string;
  mutation: string;
  parameter: string;
  status: number;
}

export function mutantRows(file: string): MutantRow[] {
  const [head, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
  assert.deepEqual(head.split('\t'), ['source_file', 'mutation', 'parameter', 'real_status', 'real_status_name', 'real_accepts']);
  return rows.map((r) => {
    const [source, mutation, parameter, status] = r.split('\t');
    return { source, mutation, parameter, status: Number(status) };
  });
}

const status52 = (r: HefReport) => {
  const v = verdictFor(r, LINE_5_2);
  return v.outcome === 'loads' ? 0 : v.outcome === 'crashes' ? -1 : v.status!;
};

test('verdict: the corpus HEFs get the status the real libhailort 5.2.0 gave', { skip }, async () => {
  for (const name of [
    'arcface_mobilefacenet',
    'darrr05__New1V2',
    'mnist_model_v_0cd51b2',
    'seeed10h__face_landmarks_lite',
    'seeed10h__lightface_slim',
    'seeed10h__mspn_regnetx_800mf',
  ]) {
    const facts = JSON.parse(readFileSync(join(real!, `${name}.json`), 'utf8')) as { ok: boolean; status?: string };
    const expected = facts.ok ? 0 : Number(String(facts.status).split(' ')[0]);
    const report = await readHef(bufferSource(readFileSync(join(dir!, `${name}.hef`)), name));
    assert.equal(status52(report), expected, `${name}: ${verdictFor(report, LINE_5_2).reason}`);
  }
});

test('verdict: all 108 damaged copies get the status the real libhailort 5.2.0 gave', { skip }, async () => {
  const rows = mutantRows(join(real!, 'mutants.tsv'));
  assert.equal(rows.length, 108);
  const sources = new Map<string, Buffer>();
  const wrong: string[] = [];
  for (const row of rows) {
    if (!sources.has(row.source)) sources.set(row.source, readFileSync(join(dir!, row.source)));
    const bytes = mutant(sources.get(row.source)!, row.mutation, row.parameter);
    const report = await readHef(bufferSource(bytes, `${row.source}~${row.mutation}`));
    const got = status52(report);
    if (got !== row.status)
      wrong.push(`${row.source} ${row.mutation} ${row.parameter}: real ${row.status}, ours ${got} (${verdictFor(report, LINE_5_2).reason})`);
  }
  assert.deepEqual(wrong, []);
});
