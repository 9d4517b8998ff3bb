// Hailo's compiler accepts every model script in ../shared/corpus/alls (the model zoo at HEAD),
// so the checker must report no error on any of them — under the default architecture and under
// the architecture of each script's folder. The folder is read; no file names are listed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { analyze } from '../../../server/src/core/alls/analysis';
import { checkDocument } from '../../../server/src/core/alls/rules';
import { decodeScript } from '../../../server/src/core/alls/encoding';
import { sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';
import { listFiles } from '../../helpers/files';

const corpus = sharedPath('corpus', 'alls');

/** `…/hailo15l/base/x.alls` → hailo15l; `generic/` and `multi-networks/` → the default. */
function archOf(path: string): string {
  return /\/(hailo8l?|hailo15[hml])\//.exec(path)?.[1] ?? 'hailo10h';
}

for (const mode of ['default hailo10h', 'folder architecture'] as const) {
  test(`alls corpus: zero errors on every real model script (${mode})`, { skip: corpus ? false : SKIP_NO_SHARED }, () => {
    const files = listFiles(corpus!, '.alls');
    assert.ok(files.length > 100, `expected the model-zoo scripts under ${corpus}, found ${files.length}`);
    const failures: string[] = [];
    let statements = 0;
    for (const f of files) {
      const { text, diagnostics: enc } = decodeScript(readFileSync(f));
      const doc = analyze(text);
      statements += doc.statements.length;
      const hwArch = mode === 'default hailo10h' ? 'hailo10h' : archOf(f);
      const errors = [...enc, ...checkDocument(doc, { settings: { hwArch } })].filter((d) => d.severity === 'error');
      for (const e of errors.slice(0, 3))
        failures.push(`${relative(corpus!, f)}:${e.range.start.line + 1}:${e.range.start.character + 1} ${e.code} ${e.message}`);
    }
    assert.deepEqual(failures, []);
    // The parser really read them: the allocator dumps alone hold thousands of statements.
    assert.ok(statements > 5000, `only ${statements} statements parsed`);
  });
}

test('alls corpus: scripts are checked against their own architecture without architecture warnings', { skip: corpus ? false : SKIP_NO_SHARED }, () => {
  const noisy: string[] = [];
  for (const f of listFiles(corpus!, '.alls')) {
    const diags = checkDocument(analyze(readFileSync(f, 'utf8')), { settings: { hwArch: archOf(f) } });
    for (const d of diags)
      if (d.code === 'alls/arch-specific' || d.code === 'alls/dfc-known-fault') noisy.push(`${relative(corpus!, f)}:${d.range.start.line + 1} ${d.message}`);
  }
  assert.deepEqual(noisy.slice(0, 10), []);
});
