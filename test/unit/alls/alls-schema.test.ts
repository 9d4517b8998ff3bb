// The command schema covers the reference: every command, sub-command and keyword of
// ../shared/docs/alls-reference.md Appendix A (read from the file, not listed here), every value
// Appendix A shows for enum-like keywords, and the DFC 5.3.0 precision_mode enum. Every entry has
// a one-line doc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { COMMANDS, METHODS, PRECISION_MODE } from '../../../server/src/core/alls/schema';
import type { ParamSpec } from '../../../server/src/core/alls/schemaTypes';
import { sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';

const reference = sharedPath('docs', 'alls-reference.md');

function appendix(): { heading: string; lines: string[] }[] {
  const text = readFileSync(reference!, 'utf8');
  const start = text.indexOf('## Appendix A');
  assert.ok(start > 0, 'Appendix A not found');
  const out: { heading: string; lines: string[] }[] = [];
  for (const block of text.slice(start).split(/^### /m).slice(1)) {
    const [first, ...rest] = block.split('\n');
    out.push({ heading: first.replace(/`/g, '').trim(), lines: rest });
  }
  return out;
}

function kwargsOf(heading: string): Record<string, ParamSpec> {
  const [cmd, sub] = heading.split(':');
  const spec = COMMANDS.get(cmd) ?? METHODS.get(cmd);
  assert.ok(spec, `command ${cmd} missing from the schema`);
  if (!sub) return spec.kwargs;
  const s = spec.subcommands?.items[sub];
  assert.ok(s, `sub-command ${cmd}(${sub}) missing from the schema`);
  return s.kwargs;
}

test('schema: every command, sub-command and keyword of Appendix A', { skip: reference ? false : SKIP_NO_SHARED }, () => {
  const blocks = appendix();
  assert.ok(blocks.length > 40, `only ${blocks.length} Appendix A entries`);
  const missing: string[] = [];
  let seen = 0;
  for (const b of blocks) {
    const kwargs = kwargsOf(b.heading);
    for (const line of b.lines) {
      const m = /^- `(\w+)=` \(/.exec(line);
      if (!m) continue;
      seen++;
      if (!kwargs[m[1]]) missing.push(`${b.heading}: ${m[1]}`);
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(seen > 150, `only ${seen} keywords read from Appendix A`);
});

test('schema: every word value Appendix A shows for an enum keyword is in its enum', { skip: reference ? false : SKIP_NO_SHARED }, () => {
  const missing: string[] = [];
  let checked = 0;
  for (const b of appendix()) {
    const kwargs = kwargsOf(b.heading);
    for (const line of b.lines) {
      const m = /^- `(\w+)=` \([^)]*\): (.*)$/.exec(line);
      if (!m) continue;
      const prm = kwargs[m[1]];
      const e = prm?.value.enum;
      if (!e || prm.value.kinds.includes('layer') || prm.value.kinds.includes('name')) continue;
      for (const v of m[2].matchAll(/`([A-Za-z_][\w-]*)`×/g)) {
        const word = v[1];
        if (['True', 'False', 'true', 'false', 'None', 'null'].includes(word)) continue;
        checked++;
        if (!e.names.has(word)) missing.push(`${b.heading}: ${m[1]}=${word}`);
      }
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(checked > 80, `only ${checked} enum values read from Appendix A`);
});

test('schema: precision_mode is exactly the DFC 5.3.0 PrecisionMode enum, closed', () => {
  assert.deepEqual([...PRECISION_MODE.names].sort(), [
    'a16_w16',
    'a16_w16_a16',
    'a16_w16_a8',
    'a16_w16_non_zero',
    'a16_w4',
    'a16_w4_a16',
    'a16_w4_a8',
    'a16_w8',
    'a16_w8_a16',
    'a16_w8_a8',
    'a8_w4',
    'a8_w4_a16',
    'a8_w4_a8',
    'a8_w4_exp',
    'a8_w8',
    'a8_w8_a16',
    'a8_w8_a8',
    'native',
  ]);
  assert.equal(PRECISION_MODE.closed, true);
});

test('schema: every command, sub-command, keyword and enum value has a one-line doc', () => {
  const empty: string[] = [];
  const check = (what: string, doc: string) => {
    if (!doc || doc.includes('\n')) empty.push(what);
  };
  const params = (where: string, ps: Iterable<ParamSpec>) => {
    for (const p of ps) {
      check(`${where}.${p.name}`, p.doc);
      for (const v of p.value.enum?.values ?? []) check(`${where}.${p.name}=${v.name}`, v.doc);
    }
  };
  for (const c of COMMANDS.values()) {
    check(c.name, c.doc);
    params(c.name, Object.values(c.kwargs));
    for (const s of c.signatures) params(c.name, s.params);
    for (const sub of Object.values(c.subcommands?.items ?? {})) {
      check(`${c.name}(${sub.name})`, sub.doc);
      params(`${c.name}(${sub.name})`, Object.values(sub.kwargs));
    }
  }
  assert.deepEqual(empty, []);
  assert.equal(COMMANDS.size, 48, '48 commands of the reference (place is a context method)');
});
