// Import cycles among our TypeScript modules: every relative `import`, `import type`, `export … from`
// and `import('…')` of a .ts file is an edge (type-only ones too: a cycle made of types means a type
// lives in its consumer instead of the folder's types.ts — ARCHITECTURE.md "No import cycles"); every
// strongly connected component of more than one module (or a module importing itself) is a cycle.
// The imports are read by TypeScript's own pre-processor (ts.preProcessFile), not by a regex.
// Usage: node scripts/import-cycles.mjs [folder ...]   (default: server/src client/src; exit 1 on a cycle)
import ts from 'typescript';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const EXTENSIONS = ['.ts', '.tsx', '.d.ts'];

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** The .ts file a relative specifier names (`./x` → x.ts, x.tsx, x.d.ts, x/index.ts), else undefined. */
function resolveSpecifier(from, spec) {
  if (!spec.startsWith('./') && !spec.startsWith('../') && spec !== '.' && spec !== '..') return undefined;
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  if (/\.tsx?$/.test(base) && existsSync(base)) return base;
  for (const ext of EXTENSIONS) if (existsSync(base + ext)) return base + ext;
  for (const ext of EXTENSIONS) {
    const index = join(base, 'index' + ext);
    if (existsSync(index)) return index;
  }
  return undefined;
}

/** The import graph of the .ts files under `folders`: file → the files it imports (inside those folders). */
export function importGraph(folders) {
  const files = folders.flatMap((f) => walk(resolve(f), []));
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const to = new Set();
    for (const ref of info.importedFiles) {
      const target = resolveSpecifier(file, ref.fileName);
      if (target && known.has(target)) to.add(target);
    }
    graph.set(file, [...to].sort());
  }
  return graph;
}

/** Strongly connected components with a cycle (Tarjan's algorithm, iterative), each sorted, as given paths. */
export function stronglyConnected(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const w = edges[top.edge++];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, edge: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(top.node)));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== top.node);
        const selfLoop = component.length === 1 && (graph.get(w) ?? []).includes(w);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The import cycles under `folders`, each a sorted list of paths relative to `root`. */
export function importCycles(folders, root = process.cwd()) {
  return stronglyConnected(importGraph(folders.map((f) => resolve(root, f)))).map((c) => c.map((f) => relative(root, f)));
}

// Run as a script (not when a test bundles it: no import.meta there).
if (process.argv[1]?.endsWith('import-cycles.mjs')) {
  const folders = process.argv.slice(2);
  const cycles = importCycles(folders.length ? folders : ['server/src', 'client/src']);
  for (const c of cycles) console.log(`cycle of ${c.length}: ${c.join(' ↔ ')}`);
  if (cycles.length) {
    console.log(`${cycles.length} import cycle${cycles.length === 1 ? '' : 's'}: move the types the modules share into their folder's types.ts`);
    process.exit(1);
  }
  console.log('no import cycles');
}
