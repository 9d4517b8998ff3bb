#!/usr/bin/env node
// Builds test/fixtures/nms/zoo-history from a clone of hailo-ai/hailo_model_zoo: every distinct
// NMS / post-process config JSON (`hailo_model_zoo/cfg/postprocess_config/*.json`, and the
// `candidate_mz_2/` copy) of every commit, deduplicated by git blob id, plus `pairs.tsv`: for each
// release tag, each `.alls` whose `nms_postprocess` names one of those configs, with the config
// blob that tag held (the script itself is in ../shared/corpus/alls-history under its blob id).
// Data only: no code of the zoo is kept.
//
//   node scripts/nms-zoo-history.mjs GIT_DIR OUT_DIR
//
// GIT_DIR is a clone (bare or not) with its tags; OUT_DIR is written from scratch.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesIn as filesOf, gitOn, historyArgs, tagsAndCommits } from './zooHistory.mjs';

const { gitDir, outDir } = historyArgs('nms-zoo-history.mjs');
const git = gitOn(gitDir);
const filesIn = (treeish, keep) => filesOf(git, treeish, keep);
const { tags, commits } = tagsAndCommits(git);

const CONFIG_DIR = /(^|\/)hailo_model_zoo\/cfg\/postprocess_config\/[^/]+\.json$/;

/** blob → { tags, paths } */
const configs = new Map();
const entry = (b) => configs.get(b) ?? configs.set(b, { tags: new Set(), paths: new Set() }).get(b);
for (const c of commits) for (const [b, p] of filesIn(c, (p) => CONFIG_DIR.test(p))) entry(b).paths.add(p);
const pairs = [];
const scripts = new Map();
/** A script's text, once per blob; '' for a blob the snapshot lacks (files of 4 MiB and more). */
function scriptText(blob) {
  if (!scripts.has(blob)) {
    const r = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-p', blob], { maxBuffer: 1 << 30 });
    scripts.set(blob, r.status === 0 ? r.stdout.toString() : '');
  }
  return scripts.get(blob);
}
for (const t of tags) {
  const byName = new Map();
  for (const [b, p] of filesIn(t, (p) => CONFIG_DIR.test(p))) {
    entry(b).tags.add(t);
    if (!p.startsWith('candidate_mz_2/')) byName.set(p.split('/').pop(), b);
  }
  for (const [sb, sp] of filesIn(t, (p) => p.endsWith('.alls') && !p.startsWith('candidate_mz_2/'))) {
    const text = scriptText(sb);
    const m = /nms_postprocess\(\s*"([^"]*postprocess_config\/([^"/]+\.json))"([^)]*)\)/.exec(text);
    if (!m) continue;
    const cb = byName.get(m[2]);
    if (!cb) continue;
    pairs.push([t, sp, sb, m[2], cb]);
  }
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, 'configs'), { recursive: true });
const ids = [...configs.keys()].sort();
for (const b of ids) writeFileSync(join(outDir, 'configs', `${b}.json`), git(['cat-file', '-p', b]));
const head = git(['rev-parse', 'HEAD']).toString().trim();
writeFileSync(join(outDir, 'pairs.tsv'), ['tag\tscript_path\tscript_blob\tconfig_name\tconfig_blob', ...pairs.map((r) => r.join('\t'))].join('\n') + '\n');
const rows = ids.map((b) => {
  const e = configs.get(b);
  return `| \`${b}\` | ${[...e.tags].join(' ') || '(between releases)'} | ${[...e.paths]
    .sort()
    .map((p) => `\`${p}\``)
    .join('<br>')} |`;
});
writeFileSync(
  join(outDir, 'SOURCES.md'),
  `# Model-zoo NMS configs of every version (data, copied verbatim)

Every distinct JSON blob under \`hailo_model_zoo/cfg/postprocess_config/\` in the history of
github hailo-ai/hailo_model_zoo (snapshot at ${head}): ${ids.length} blobs, named by blob id in
\`configs/\`. \`pairs.tsv\` lists, for each of the ${tags.length} release tags, every model script
whose \`nms_postprocess\` names one of them, with the blob that tag held (${pairs.length} pairs; the
scripts are in ../shared/corpus/alls-history under their blob id). Built by
\`node scripts/nms-zoo-history.mjs GIT_DIR OUT_DIR\` (hailo-tools repo).

| blob | releases (tags) | paths |
|---|---|---|
${rows.join('\n')}
`,
);
process.stdout.write(`${ids.length} configs, ${pairs.length} script/config pairs over ${tags.length} tags\n`);
