// The architecture a `.alls` script targets, inferred before the setting (issue 11): the pure
// decision (server/src/core/common/archInference.ts). Expected values come from the facts it encodes,
// not from its output: the model zoo keeps scripts in `cfg/alls/<arch>/{base,performance}/` and
// looks hailo10h scripts up in `hailo15h/` (hailo_model_zoo core/main_utils.py resolve_alls_path,
// v5.0.0 on: `hw_arch = "hailo15h" if hw_arch == "hailo10h"`); a HEF's header hw_arch 1 (HAILO8P)
// is what the DFC writes for hailo8, 3 is hailo8l, 103 (HAILO1XH) is shared by hailo15h and
// hailo10h (hef-format.md, ProtoHEFHwArch); the HAR's metadata.json names the DFC arch string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { archFolderOf, archHoverMarkdown, inferArch } from '../../../server/src/core/common/archInference';

const ZOO = '/home/u/hailo_model_zoo/hailo_model_zoo/cfg/alls';

test('arch: a model-zoo folder named after an architecture decides before the setting', () => {
  const r = inferArch({ scriptPath: `${ZOO}/hailo15l/base/clip_vit_b_16_text_encoder.alls`, setting: 'hailo10h' });
  assert.equal(r.arch, 'hailo15l');
  assert.equal(r.source, 'folder');
  assert.equal(r.from, 'from the folder hailo15l/');
  assert.equal(inferArch({ scriptPath: `${ZOO}/hailo8l/base/stdc1.alls`, setting: 'hailo10h' }).arch, 'hailo8l');
  assert.equal(inferArch({ scriptPath: `${ZOO}/hailo8/performance/yolov5m.alls`, setting: 'hailo15h' }).arch, 'hailo8');
  // Windows paths too.
  assert.equal(inferArch({ scriptPath: 'C:\\zoo\\cfg\\alls\\hailo15m\\base\\x.alls', setting: 'hailo10h' }).arch, 'hailo15m');
});

test('arch: the zoo looks hailo10h scripts up in hailo15h/ — the setting picks between the two, anything else gets hailo15h', () => {
  const path = `${ZOO}/hailo15h/base/yolov8m.alls`;
  assert.deepEqual(archFolderOf(path), { folder: 'hailo15h', arches: ['hailo15h', 'hailo10h'] });
  const ten = inferArch({ scriptPath: path, setting: 'hailo10h' });
  assert.equal(ten.arch, 'hailo10h');
  assert.equal(ten.source, 'folder');
  assert.match(ten.why, /keeps hailo15h and hailo10h scripts there; the setting picks hailo10h/);
  assert.equal(inferArch({ scriptPath: path, setting: 'hailo8' }).arch, 'hailo15h');
});

test('arch: folders that name no architecture leave the setting in charge', () => {
  for (const p of [
    `${ZOO}/generic/resnet_v1_50.alls`,
    '/work/models/qwen/vision.alls',
    `${ZOO}/../multi-networks/fast_depth_ssd/fast_depth_ssd.alls`,
    '/data/hailo10h-models/x.alls',
    'relative.alls',
    '',
  ]) {
    const r = inferArch({ scriptPath: p, setting: 'hailo8l' });
    assert.deepEqual([r.arch, r.source, r.from], ['hailo8l', 'setting', 'setting `hailo.hwArch`'], p);
  }
  // The nearest folder wins; the file's own name is not a folder.
  assert.equal(archFolderOf('/a/hailo8/b/hailo15l/x.alls')?.folder, 'hailo15l');
  assert.equal(archFolderOf('/a/b/hailo8'), undefined);
  // An unknown setting stays (it disables the arch rules) when nothing else says.
  assert.equal(inferArch({ scriptPath: '/x/y.alls', setting: 'hailo12l' }).arch, 'hailo12l');
});

test('arch: a HEF beside the script decides first; hw_arch 103 is hailo10h or hailo15h and the HAR or the setting picks', () => {
  const scriptPath = `${ZOO}/hailo15l/base/model.alls`; // the folder would say hailo15l
  const h8 = inferArch({ scriptPath, setting: 'hailo10h', hef: { name: 'model.hef', hwArchId: 1 } });
  assert.deepEqual([h8.arch, h8.source, h8.from], ['hailo8', 'hef', 'from model.hef beside this script']);
  assert.equal(inferArch({ scriptPath, setting: 'hailo10h', hef: { name: 'model.hef', hwArchId: 3 } }).arch, 'hailo8l');
  assert.equal(inferArch({ scriptPath, setting: 'hailo10h', hef: { name: 'qwen.hef', hwArchId: 103 } }).arch, 'hailo10h');
  const byHar = inferArch({
    scriptPath,
    setting: 'hailo10h',
    hef: { name: 'qwen.hef', hwArchId: 103 },
    har: { name: 'qwen.har', hwArch: 'hailo15h', beside: true },
  });
  assert.equal(byHar.arch, 'hailo15h');
  assert.match(byHar.why, /hw_arch 103, which is hailo10h and hailo15h; qwen\.har says hailo15h/);
  assert.equal(inferArch({ scriptPath, setting: 'hailo15h', hef: { name: 'qwen.hef', hwArchId: 103 } }).arch, 'hailo15h');
  // A HAR that disagrees with the compiled HEF is mentioned; the HEF wins.
  const clash = inferArch({ scriptPath, setting: 'hailo10h', hef: { name: 'm.hef', hwArchId: 1 }, har: { name: 'm.har', hwArch: 'hailo8l', beside: true } });
  assert.equal(clash.arch, 'hailo8');
  assert.match(clash.why, /m\.har beside this script says hailo8l; the compiled HEF wins/);
});

test('arch: a HAR decides when no HEF does; unreadable or unknown evidence falls through and is said', () => {
  const scriptPath = `${ZOO}/hailo15h/base/whisper.alls`;
  const har = inferArch({ scriptPath, setting: 'hailo10h', har: { name: 'whisper.har', hwArch: 'hailo8l', beside: true } });
  assert.deepEqual([har.arch, har.source, har.from], ['hailo8l', 'har', 'from whisper.har beside this script']);
  const named = inferArch({ scriptPath: '/x/a.alls', setting: 'hailo10h', har: { name: 'm.har', hwArch: 'hailo8', beside: false } });
  assert.deepEqual([named.arch, named.from], ['hailo8', 'from m.har']);
  // A HEF that cannot be read and a HAR with an architecture this tool does not know: the folder decides.
  const fallthrough = inferArch({
    scriptPath,
    setting: 'hailo8',
    hef: { name: 'w.hef', error: 'not a HEF' },
    har: { name: 'w.har', hwArch: 'mars', beside: true },
  });
  assert.deepEqual([fallthrough.arch, fallthrough.source], ['hailo15h', 'folder']);
  assert.match(fallthrough.why, /w\.hef beside it could not be read \(not a HEF\)/);
  assert.match(fallthrough.why, /w\.har says hw_arch 'mars', which this tool does not know/);
  // An internal HEF arch id names no DFC target: the setting.
  const odd = inferArch({ scriptPath: '/x/a.alls', setting: 'hailo10h', hef: { name: 'a.hef', hwArchId: 250 } });
  assert.deepEqual([odd.arch, odd.source], ['hailo10h', 'setting']);
  assert.match(odd.why, /hw_arch 250, which names no architecture/);
});

test('arch: the first-line hover says which and why, with file names escaped', () => {
  const md = archHoverMarkdown(inferArch({ scriptPath: '/m/qwen.alls', setting: 'hailo10h', hef: { name: 'qwen.hef', hwArchId: 103 } }));
  assert.match(md, /^\*\*Target architecture: hailo10h\*\* — from the HEF beside it/);
  assert.match(md, /qwen\.hef beside this script was compiled for it \\\(HEF hw\\_arch 103, which is hailo10h and hailo15h; the setting picks hailo10h\\\)/);
  assert.match(md, /Order: a HEF beside the script, then its HAR, then a folder named after an architecture/);
  // A hostile file name cannot add a line, a link or HTML to the hover.
  const evil = archHoverMarkdown(inferArch({ scriptPath: '/m/x.alls', setting: 'hailo10h', hef: { name: '[a](command:x)\n# <img src=x>.hef', hwArchId: 1 } }));
  assert.ok(!evil.includes('[a](command:x)') && !/(^|[^\\])<img/.test(evil) && !evil.includes('\n# '), evil);
  assert.match(evil, /\\\[a\\\]\\\(command:x\\\)\\\\n# \\<img src=x\\>\.hef/);
});
