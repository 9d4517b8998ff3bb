// Precision against history: every `.alls` version Hailo's model zoo ever released
// (../shared/corpus/alls-history, built by scripts/alls-history.mjs from the zoo's git history,
// deduplicated by blob) compiled in its day, so no form any of them uses may be an error, nor a
// warning that calls it wrong (issue 10). Each blob is checked under the architectures its paths
// and release tags imply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../server/src/core/alls/analysis';
import { checkDocument } from '../../../server/src/core/alls/rules';
import { decodeScript } from '../../../server/src/core/alls/encoding';
import { sharedPath, sharedRoot, SKIP_NO_SHARED } from '../../helpers/shared';

// Not sharedPath: its absence inside an existing ../shared is a note, even under CI (below).
const corpus = sharedRoot() && existsSync(join(sharedRoot()!, 'corpus', 'alls-history')) ? join(sharedRoot()!, 'corpus', 'alls-history') : undefined;
if (!sharedRoot()) sharedPath('corpus'); // a missing ../shared itself: a note locally, a failure under CI
// ../shared must be there under CI; this folder is newer than some copies of it (a CI run gets the
// shared/ its session started with), so only the folder's absence is a skip there.
const skip = corpus ? false : sharedRoot() ? 'NOTE: ../shared/corpus/alls-history is absent in this copy of ../shared' : SKIP_NO_SHARED;
if (!corpus && sharedRoot()) process.stderr.write('NOTE: ../shared/corpus/alls-history is absent; skipping the model-zoo history tests\n');

interface Version {
  blob: string;
  tags: string[];
  paths: string[];
}

function versions(): Version[] {
  const byBlob = new Map<string, Version>();
  const rows = readFileSync(join(corpus!, 'sources.tsv'), 'utf8').trim().split('\n').slice(1);
  for (const row of rows) {
    const [blob, tag, path] = row.split('\t');
    const v = byBlob.get(blob) ?? byBlob.set(blob, { blob, tags: [], paths: [] }).get(blob)!;
    if (tag !== '-' && !v.tags.includes(tag)) v.tags.push(tag);
    if (!v.paths.includes(path)) v.paths.push(path);
  }
  return [...byBlob.values()].filter((v) => existsSync(join(corpus!, `${v.blob}.alls`)));
}

/**
 * Architectures a version was written for: the folder's (`hailo15l/base/…`), else the zoo's
 * default at its release — hailo8 up to v2.x, hailo10h from v5.0.0 (reference §5).
 */
function archesOf(v: Version): string[] {
  const out = new Set<string>();
  for (const p of v.paths) {
    const folder = /\/(hailo8l?|hailo15[hml]|hailo10h)\//.exec(p)?.[1];
    if (folder) out.add(folder);
    else {
      if (v.tags.length === 0 || v.tags.some((t) => !t.startsWith('v5'))) out.add('hailo8');
      if (v.tags.some((t) => t.startsWith('v5'))) out.add('hailo10h');
    }
  }
  return [...out];
}

/**
 * Warnings a released script may still get, each because Hailo itself later agreed: the v2.1
 * person-reid scripts normalised on the 0–1 scale and v2.2 multiplied the same values by 255
 * (Hailo's HACE inspector warns on the same condition); `generic/yolov5m_wo_spp_yuy2.alls` of
 * v2.8–v2.11 ends a statement with `]))`, a typo Hailo removed in v2.12 (a warning, never an error:
 * no public DFC message refuses it).
 */
const ACCEPTED_WARNINGS = new Set(['alls/normalization-scale', 'alls/extra-closer']);

test('alls history: every released model-zoo script version gives zero errors', { skip }, () => {
  const all = versions();
  const released = all.filter((v) => v.tags.length > 0);
  assert.ok(released.length > 1200, `expected the released script versions under ${corpus}, found ${released.length}`);
  const failures: string[] = [];
  let typo = 0;
  let barePlace = 0;
  for (const v of all) {
    const { text, diagnostics: enc } = decodeScript(readFileSync(join(corpus!, `${v.blob}.alls`)));
    const lines = text.split(/\r?\n/);
    const doc = analyze(text);
    for (const hwArch of archesOf(v)) {
      const diags = [...enc, ...checkDocument(doc, { settings: { hwArch } })];
      for (const d of diags) {
        if (d.code === 'alls/extra-closer' && lines[d.range.start.line]?.trimEnd().endsWith(']))')) typo++;
        if (d.severity === 'error') {
          failures.push(
            `${v.blob} (${v.tags.join(' ') || 'untagged'}; ${v.paths[0]}) [${hwArch}] ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`,
          );
        } else if (d.severity === 'warning' && !ACCEPTED_WARNINGS.has(d.code)) {
          failures.push(`${v.blob} (${v.tags.join(' ') || 'untagged'}; ${v.paths[0]}) [${hwArch}] warning ${d.code} ${d.message}`);
        }
        if (d.code === 'alls/legacy' && /bare `place/.test(d.message)) barePlace++;
      }
    }
  }
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} errors/warnings on released scripts`);
  // The released typo (v2.8–v2.9.1, v2.10, v2.11: three versions) is still reported, as a warning …
  assert.equal(typo, 3);
  // … and the construct that used to be a false error in 67 versions is now a legacy hint.
  assert.ok(barePlace >= 60, `bare place(...) hinted in ${barePlace} script versions`);
});

test('alls history: legacy hints name the releases that used the form', { skip }, () => {
  const v = versions().find((x) => x.tags.includes('v2.9.1') && /^\s*\w+ = resize_input\(/m.test(readFileSync(join(corpus!, `${x.blob}.alls`), 'utf8')));
  assert.ok(v, 'a v2.9.1 script with resize_input(...)');
  const diags = checkDocument(analyze(readFileSync(join(corpus!, `${v.blob}.alls`), 'utf8')), { settings: { hwArch: 'hailo8' } });
  const legacy = diags.find((d) => d.code === 'alls/legacy' && d.message.includes('resize_input'));
  assert.ok(legacy, 'resize_input is hinted as legacy');
  assert.equal(legacy.severity, 'hint');
  // The range given in the hint holds the release this script came from.
  assert.match(legacy.message, /model zoo v2\.1–v2\.9\.1/);
});
