#!/usr/bin/env node
// Builds the historical `.alls` corpus (../shared/corpus/alls-history) from a clone of
// hailo-ai/hailo_model_zoo: every distinct `.alls` blob of every commit (released tags and the
// history between them), deduplicated by git blob id, plus OUT_DIR/SOURCES.md (which tags and paths hold
// each blob) and sources.tsv (the same, for tests). Data only: no code of the zoo is kept.
//
//   node scripts/alls-history.mjs GIT_DIR OUT_DIR
//
// GIT_DIR is a clone (bare or not) with its tags; OUT_DIR is written from scratch.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesIn, gitOn, historyArgs, tagsAndCommits, versionKey } from './zooHistory.mjs';

const { gitDir, outDir } = historyArgs('alls-history.mjs');
const git = gitOn(gitDir);
/** [blob, path] of every `.alls` file in a tree-ish. */
const allsIn = (treeish) => filesIn(git, treeish, (p) => p.endsWith('.alls'));
const { tags, commits } = tagsAndCommits(git);

/** blob → { tags: Set, paths: Set, commits: number } */
const blobs = new Map();
const entry = (b) => blobs.get(b) ?? blobs.set(b, { tags: new Set(), paths: new Set(), tagPaths: new Set(), commits: 0 }).get(b);
for (const t of tags)
  for (const [b, p] of allsIn(t)) {
    const e = entry(b);
    e.tags.add(t);
    e.paths.add(p);
    e.tagPaths.add(`${t}\t${p}`);
  }
for (const c of commits)
  for (const [b, p] of allsIn(c)) {
    const e = entry(b);
    e.paths.add(p);
    e.commits++;
  }

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const ids = [...blobs.keys()].sort();
const present = new Set(
  git(['cat-file', '--batch-check'], ids.join('\n') + '\n')
    .toString()
    .split('\n')
    .filter((l) => / blob \d+$/.test(l))
    .map((l) => l.slice(0, 40)),
);
const missing = ids.filter((b) => !present.has(b));
for (const b of ids) if (present.has(b)) writeFileSync(join(outDir, `${b}.alls`), git(['cat-file', 'blob', b]));

const tsv = ['blob\ttag\tpath'];
for (const b of ids) {
  if (!present.has(b)) continue;
  const e = blobs.get(b);
  if (e.tagPaths.size === 0) for (const p of [...e.paths].sort()) tsv.push(`${b}\t-\t${p}`);
  else for (const tp of [...e.tagPaths].sort((x, y) => (versionKey(x) < versionKey(y) ? -1 : 1))) tsv.push(`${b}\t${tp}`);
}
writeFileSync(join(outDir, 'sources.tsv'), tsv.join('\n') + '\n');

const released = ids.filter((b) => present.has(b) && blobs.get(b).tags.size > 0).length;
const md = [
  '# Historical model scripts (.alls) of every model-zoo release',
  '',
  `Every distinct \`.alls\` file version (git blob) in the history of github hailo-ai/hailo_model_zoo:`,
  `${present.size} blobs from ${commits.length} commits, ${released} of them in at least one of the ${tags.length} release tags`,
  `(${tags[0]} … ${tags[tags.length - 1]}); the rest only in commits between releases. Each file is named by its`,
  'blob id; `sources.tsv` lists (blob, tag, path) for every released copy, and (blob, `-`, path) for',
  'blobs no tag holds. Built by `node scripts/alls-history.mjs GIT_DIR OUT_DIR` (hailo-tools repo).',
  missing.length ? `${missing.length} blobs are not here: the snapshot it was built from lacks files of 4 MiB and more (${missing.join(', ')}).` : '',
  '',
  'Scripts that Hailo released compiled in their day: a checker must report no error on a form any',
  'of them uses (issue 10). The one known exception is a real typo — an extra `)` in',
  "`generic/yolov5m_wo_spp_yuy2.alls`, v2.8–v2.11, fixed in v2.12 — which the DFC's pyparsing grammar",
  '(`parseString(..., parseAll=True)`) cannot accept; see the hailo-tools test `alls-history`.',
  '',
  '| blob | releases (tags) | paths |',
  '|---|---|---|',
  ...ids
    .filter((b) => present.has(b))
    .map((b) => {
      const e = blobs.get(b);
      const t = [...e.tags];
      return `| \`${b}\` | ${t.length ? t.join(' ') : `— (${e.commits} commits)`} | ${[...e.paths]
        .sort()
        .map((p) => `\`${p}\``)
        .join('<br>')} |`;
    }),
  '',
];
writeFileSync(join(outDir, 'SOURCES.md'), md.join('\n'));
process.stdout.write(`${present.size} scripts (${released} released, ${missing.length} missing) → ${outDir}\n`);
