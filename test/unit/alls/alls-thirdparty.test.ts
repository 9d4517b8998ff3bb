// Third-party scripts (../shared/corpus/alls-thirdparty: tutorials, users' repositories; sources
// in its SOURCES.md): no false error on any of them, and each real mistake they contain is an
// error that carries its evidence (issue 10). The mistakes are listed here with the DFC rejection
// that proves each one; everything else in the folder must be free of errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { analyze } from '../../../server/src/core/alls/analysis';
import { checkDocument } from '../../../server/src/core/alls/rules';
import { mistakeMismatches, type KnownMistakes } from '../../helpers/allsMistakes';
import { listFiles } from '../../helpers/files';
import { sharedRoot, SKIP_NO_SHARED } from '../../helpers/shared';

// Optional inside ../shared (sharedPath would make its absence a CI failure; ../shared itself still is).
const corpus = sharedRoot() && existsSync(join(sharedRoot()!, 'corpus', 'alls-thirdparty')) ? join(sharedRoot()!, 'corpus', 'alls-thirdparty') : undefined;
// Newer than some copies of ../shared (a CI run gets the shared/ its session started with).
const skip = corpus ? false : sharedRoot() ? 'NOTE: ../shared/corpus/alls-thirdparty is absent in this copy of ../shared' : SKIP_NO_SHARED;
if (!corpus && sharedRoot()) process.stderr.write('NOTE: ../shared/corpus/alls-thirdparty is absent; skipping the third-party script tests\n');

/** file → the errors it must get: `line:col code`, with the DFC message that proves each. */
const MISTAKES: KnownMistakes = {
  // An unassigned normalization: "BackendScriptParserException: Parsing failed at: >!<normalization(...)".
  'yolo-settings-unassigned-normalization.alls': [{ at: '1:1', code: 'alls/missing-target', evidence: /Parsing failed at: >!<normalization/ }],
};

test('third-party scripts: their real mistakes are errors with evidence, nothing else is an error', { skip }, () => {
  const files = listFiles(corpus!, '.alls');
  assert.ok(files.length >= 10, `expected the third-party scripts under ${corpus}, found ${files.length}`);
  assert.deepEqual(
    mistakeMismatches(files, MISTAKES, () => 'hailo10h'),
    [],
  );
});

test('third-party scripts: forms several independent authors write are not warned as unknown', { skip }, () => {
  const unknown: string[] = [];
  for (const f of listFiles(corpus!, '.alls')) {
    for (const d of checkDocument(analyze(readFileSync(join(f), 'utf8')))) {
      if (d.code === 'alls/unrecognized-value' || d.code === 'alls/unknown-kwarg') unknown.push(`${basename(f)}:${d.range.start.line + 1} ${d.message}`);
    }
  }
  assert.deepEqual(unknown, []);
});
