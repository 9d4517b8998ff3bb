// Community scripts (../shared/corpus/alls-community: users' repositories, each with its source and
// what its author reports in SOURCES.md): no false error on any form an author reports compiling,
// and each form an author reports the DFC refusing is an error that carries its evidence (issue 20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyze } from '../../../server/src/core/alls/analysis';
import { checkDocument } from '../../../server/src/core/alls/rules';
import { mistakeMismatches, type KnownMistakes } from '../../helpers/allsMistakes';
import { listFiles } from '../../helpers/files';
import { sharedPath } from '../../helpers/shared';

const corpus = sharedPath('corpus', 'alls-community');

/** file → the errors it must get (`line:col code`) and the evidence each message must carry. */
const MISTAKES: KnownMistakes = {
  // SOURCES.md: "KNOWN FAILURE: parameter name error" / "No argument named ...".
  'murasan201_doc_fail_nms_config_file_path.alls': [
    { at: '1:1', code: 'alls/nms-meta-arch-missing', evidence: /meta architecture missing/ },
    { at: '1:17', code: 'alls/unknown-kwarg', evidence: /No argument named nms_config_file_path/ },
  ],
  // SOURCES.md: "KNOWN FAILURE: meta arch missing".
  'murasan201_doc_fail_no_meta_arch.alls': [{ at: '1:1', code: 'alls/nms-meta-arch-missing', evidence: /meta architecture missing/ }],
  // SOURCES.md: "KNOWN FAILURE: 'nms_config parameter name does not exist' / 'No argument named ...'".
  'murasan201_nms_config.alls': [
    { at: '1:1', code: 'alls/nms-meta-arch-missing', evidence: /meta architecture missing/ },
    { at: '2:5', code: 'alls/unknown-kwarg', evidence: /No argument named nms_config/ },
  ],
  // "doc-only, no evidence it was run": neither is a DFC command.
  'arsatyants_hailo_optimization_mscript.alls': [
    { at: '7:1', code: 'alls/unknown-command', evidence: /Unknown command `optimization_level`/ },
    { at: '13:1', code: 'alls/unknown-command', evidence: /Unknown command `allocate_clusters`/ },
  ],
};

/** The architecture SOURCES.md gives each script's context (hailo8l for the RPi kits, else hailo8). */
function archOf(name: string): string {
  const row = readFileSync(`${corpus}/SOURCES.md`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`| ${name} |`));
  return row && /hailo8l/.test(row) ? 'hailo8l' : 'hailo8';
}

test(
  'community scripts: the refused forms are errors with their evidence, nothing else is an error',
  { skip: corpus ? false : 'NOTE: ../shared is absent' },
  () => {
    const files = listFiles(corpus!, '.alls');
    assert.ok(files.length >= 16, `expected the community scripts under ${corpus}, found ${files.length}`);
    assert.deepEqual(mistakeMismatches(files, MISTAKES, archOf), []);
  },
);

test('community scripts: an explicit optimization_level 1 is not said to need a GPU (only the default level is lowered)', () => {
  const d = checkDocument(analyze('model_optimization_flavor(optimization_level=1)\n')).filter((x) => x.code === 'alls/optimization-needs-gpu');
  assert.deepEqual(d, []);
  const two = checkDocument(analyze('model_optimization_flavor(optimization_level=2)\n')).find((x) => x.code === 'alls/optimization-needs-gpu')!;
  assert.match(two.message, /lowers only its default level/);
  assert.doesNotMatch(two.message, /Reducing optimization level to 0 \(the accuracy/);
});
