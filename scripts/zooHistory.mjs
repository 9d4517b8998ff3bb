// What the model-zoo history scripts (alls-history.mjs, nms-zoo-history.mjs) share: the
// `GIT_DIR OUT_DIR` arguments, git on that clone (argument arrays, no shell), the files of a
// tree-ish, and the release tags in version order with every commit of the history.
import { spawnSync } from 'node:child_process';

/** The script's `GIT_DIR OUT_DIR`; a usage line and exit 2 without them. */
export function historyArgs(script) {
  const [gitDir, outDir] = process.argv.slice(2);
  if (!gitDir || !outDir) {
    process.stderr.write(`usage: node scripts/${script} GIT_DIR OUT_DIR\n`);
    process.exit(2);
  }
  return { gitDir, outDir };
}

/** git on the clone at `gitDir`: its stdout bytes; throws with git's stderr when it fails. */
export function gitOn(gitDir) {
  return (args, input) => {
    const r = spawnSync('git', ['--git-dir', gitDir, ...args], { input, maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString().trim()}`);
    return r.stdout;
  };
}

/** [blob, path] of the files of a tree-ish that `keep` accepts. */
export function filesIn(git, treeish, keep) {
  const out = [];
  for (const line of git(['ls-tree', '-r', treeish]).toString().split('\n')) {
    const m = /^\d+ blob ([0-9a-f]{40})\t(.+)$/.exec(line);
    if (m && keep(m[2])) out.push([m[1], m[2]]);
  }
  return out;
}

/** A tag's (or a `tag\t…` line's) sort key: numeric parts padded, so v2.10 comes after v2.9. */
export const versionKey = (t) =>
  t
    .replace(/^v/, '')
    .split(/[._-]/)
    .map((x) => (/^\d+$/.test(x) ? x.padStart(6, '0') : x))
    .join('.');

/** The release tags, oldest first, and every commit of every ref. */
export function tagsAndCommits(git) {
  const tags = git(['tag'])
    .toString()
    .split('\n')
    .filter(Boolean)
    .sort((a, b) => (versionKey(a) < versionKey(b) ? -1 : 1));
  const commits = git(['rev-list', '--all']).toString().split('\n').filter(Boolean);
  return { tags, commits };
}
