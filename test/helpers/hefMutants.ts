// The damaged copies of ../shared/corpus/hef/libhailort-5.2.0/mutants.tsv, made byte-exactly as its
// README specifies, and the table's rows (the real libhailort 5.2.0's Hef::create status for each).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

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
