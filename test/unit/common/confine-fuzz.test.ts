// Issue 29, a fuzz of link layouts: for every path in the table below (paths the product reads or
// writes, each through its own entry point), a link is put at every component of the path, leading
// inside the root and out of it, with absolute and relative targets. Reads: an inside link works
// (the product sees the file), an outside one is refused. Writes: a link at a folder component is
// refused either way (a write never follows a link), a link at the file itself is replaced, never
// written through. Always: the outside files keep their bytes and mtimes, and the product's output
// holds no outside byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { readPlan } from '../../../server/src/core/sweep/plan';
import { writeResult, type VariantResult } from '../../../server/src/core/sweep/results';
import { FileRoots } from '../../../server/src/core/common/confined';
import { probeSystem } from '../../../server/src/core/doctor/probe';
import { readHarView } from '../../../server/src/core/har/harView';
import { saveDivergenceResults, type DivergenceResults } from '../../../server/src/core/har/divergenceResults';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const MODEL = join(repoRoot, 'examples', 'model');
const NMS = join(repoRoot, 'test', 'fixtures', 'nms', 'custom');
const MARK = 'OUTSIDE-c0ffee';

interface Entry {
  name: string;
  kind: 'read' | 'write';
  /** The path below the root, one element per component; the last is the file. */
  rel: string[];
  /** The file's bytes (reads; written where the path leads). */
  content?: () => string | Buffer;
  /** Other files the operation needs, in `root`. */
  prepare?: (root: string) => void;
  /** A system root (`doctor --root`): an absolute link names a path inside the system. */
  system?: boolean;
  /** A folder walk: links to folders are never entered (inside or out), a file link inside is. */
  walk?: boolean;
  /** Runs the product; `ok`: it saw (read) or wrote the file; `text`: everything it showed. */
  run: (root: string) => Promise<{ ok: boolean; text: string }>;
}

async function cli(...args: string[]): Promise<string> {
  const io = captureIO();
  await main(args, io);
  return io.outText + io.errText;
}

/** The custom detector's config with 3 classes: the 80-class HEF beside it makes a finding when it is read. */
const nmsConfig = () => JSON.stringify({ ...(JSON.parse(readFileSync(join(NMS, 'custom_nms_config.json'), 'utf8')) as object), classes: 3 });
const divergence: DivergenceResults = {
  format: 'hailo-tools-divergence/1' as DivergenceResults['format'],
  har: 'm.har',
  onnx: 'm.onnx',
  context: 'quantized',
  inputs: { file: 'c.npy', count: 1 },
  threshold: 0.1,
  jump: 4,
  layers: [],
  verdict: 'fine',
  finishedAt: '2026-01-01T00:00:00.000Z',
};

/** Every path the product reads or writes that a folder decides, with the operation that reaches it. */
const TABLE: Entry[] = [
  {
    name: 'labels beside a HEF (check)',
    kind: 'read',
    rel: ['labels.json'],
    content: () => JSON.stringify({ labels: [`${MARK}-a`, 'b'] }),
    prepare: (root) => copyFileSync(join(NMS, 'custom.hef'), join(root, 'm.hef')),
    run: async (root) => {
      const text = await cli('check', '--json', join(root, 'm.hef'));
      return { ok: /nms\/labels-count/.test(text), text };
    },
  },
  {
    name: 'NMS config beside a HEF (check)',
    kind: 'read',
    rel: ['m_nms_config.json'],
    content: nmsConfig,
    prepare: (root) => copyFileSync(join(NMS, 'custom.hef'), join(root, 'm.hef')),
    run: async (root) => {
      const text = await cli('check', '--json', join(root, 'm.hef'));
      return { ok: /nms\/hef-differs/.test(text), text };
    },
  },
  {
    name: 'a script in a folder given to check',
    kind: 'read',
    walk: true,
    rel: ['sub', 'deeper', 'x.alls'],
    content: () => `# ${MARK}\nmodel_optimization_flavor(optimization_level=9)\n`,
    run: async (root) => {
      const text = await cli('check', '--json', root);
      return { ok: /x\.alls/.test(text) && /optimization_level/.test(text), text: text.replace(/"path": "[^"]*"/g, '') };
    },
  },
  {
    name: 'noise sidecar beside a HAR (HAR view)',
    kind: 'read',
    rel: ['m.noise.json'],
    content: () => readFileSync(join(MODEL, 'tinycnn_quantized.noise.json')),
    prepare: (root) => copyFileSync(join(MODEL, 'tinycnn_quantized.har'), join(root, 'm.har')),
    run: async (root) => {
      const view = await readHarView(join(root, 'm.har'));
      return { ok: !!view.noise?.source.endsWith('m.noise.json'), text: view.notes.join('\n') };
    },
  },
  {
    name: "a sweep plan's base script",
    kind: 'read',
    rel: ['scripts', 'nested', 'tinycnn.alls'],
    content: () => readFileSync(join(MODEL, 'tinycnn.alls')),
    prepare: (root) => {
      copyFileSync(join(MODEL, 'tinycnn_hailo_model.har'), join(root, 'm.har'));
      writeFileSync(join(root, 'p.sweep.json'), JSON.stringify({ model: 'm.har', alls: 'scripts/nested/tinycnn.alls', hwArch: 'hailo10h' }));
    },
    run: async (root) => {
      try {
        return { ok: !!readPlan(join(root, 'p.sweep.json')).alls, text: '' };
      } catch (err) {
        return { ok: false, text: (err as Error).message };
      }
    },
  },
  {
    name: "Check Setup: a workspace venv's hailo_platform",
    kind: 'read',
    rel: ['venv', 'lib', 'python3.11', 'site-packages', 'hailo_platform', '__init__.py'],
    content: () => '__version__ = "4.23.0"\n',
    run: async (root) => {
      const sys = probeSystem(join(root, 'no-system'), root);
      return { ok: sys.wheels.some((w) => w.version === '4.23.0'), text: JSON.stringify(sys.wheels) };
    },
  },
  {
    name: 'doctor --root: the kernel module version',
    kind: 'read',
    system: true,
    rel: ['sys', 'module', 'hailo_pci', 'version'],
    content: () => '4.23.0\n',
    run: async (root) => {
      const sys = probeSystem(root);
      return { ok: sys.modules.some((m) => m.version === '4.23.0'), text: JSON.stringify(sys.modules) };
    },
  },
  {
    name: 'doctor --root: dpkg status',
    kind: 'read',
    system: true,
    rel: ['var', 'lib', 'dpkg', 'status'],
    content: () => 'Package: hailort\nStatus: install ok installed\nVersion: 4.23.0\nArchitecture: amd64\n\n',
    run: async (root) => {
      const sys = probeSystem(root);
      return { ok: sys.packages.some((p) => p.name === 'hailort'), text: JSON.stringify(sys.packages) };
    },
  },
  {
    name: 'a sweep variant result',
    kind: 'write',
    rel: ['results', 'v1', 'sweep-result.json'],
    run: async (root) => {
      try {
        writeResult(FileRoots.of([root]), join(root, 'results', 'v1'), { version: 1, key: 'k' } as unknown as VariantResult);
        return { ok: true, text: '' };
      } catch (err) {
        return { ok: false, text: (err as Error).message };
      }
    },
  },
  {
    name: 'the diverge sidecar beside a HAR',
    kind: 'write',
    rel: ['m.diverge.json'],
    run: async (root) => {
      try {
        saveDivergenceResults(join(root, 'm.har'), divergence);
        return { ok: true, text: '' };
      } catch (err) {
        return { ok: false, text: (err as Error).message };
      }
    },
  },
];

/** Every file below `dir` with its bytes and mtime (links as links). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else out.set(p, st.isSymbolicLink() ? `link` : `${readFileSync(p).toString('base64')}:${statSync(p).mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

type Where = 'in' | 'out';
type Target = 'absolute' | 'relative';

/**
 * Lays out `rel` under `root` with component `at` replaced by a link to the same subtree placed
 * elsewhere (inside the root, or in `outside`), the file holding `content`.
 */
function layLinked(root: string, outside: string, e: Entry, at: number, where: Where, target: Target): void {
  const head = e.rel.slice(0, at);
  const tail = e.rel.slice(at); // tail[0] is the linked component
  const base = where === 'in' ? join(root, `.real-${at}`) : join(outside, `real-${at}`);
  const file = join(base, ...tail);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, e.kind === 'read' ? e.content!() : `${MARK} original\n`);
  const linkAt = join(root, ...head, tail[0]);
  mkdirSync(dirname(linkAt), { recursive: true });
  const to = join(base, tail[0]);
  const absolute = e.system && where === 'in' ? `/${relative(root, to)}` : to;
  symlinkSync(target === 'absolute' ? absolute : relative(dirname(linkAt), to), linkAt);
}

for (const e of TABLE) {
  test(`link fuzz: ${e.name} (${e.rel.join('/')})`, async () => {
    // Baseline: the plain layout works.
    {
      const top = realpathSync(mkdtempSync(join(tmpdir(), 'hailo-fuzz-')));
      try {
        const root = join(top, 'root');
        mkdirSync(root);
        e.prepare?.(root);
        if (e.kind === 'read') {
          mkdirSync(join(root, ...e.rel.slice(0, -1)), { recursive: true });
          writeFileSync(join(root, ...e.rel), e.content!());
        } else mkdirSync(join(root, ...e.rel.slice(0, -1)), { recursive: true });
        const r = await e.run(root);
        assert.ok(r.ok, `the plain layout works: ${r.text}`);
      } finally {
        rmSync(top, { recursive: true, force: true });
      }
    }
    for (let at = 0; at < e.rel.length; at++) {
      for (const where of ['in', 'out'] as const) {
        for (const target of ['absolute', 'relative'] as const) {
          const top = realpathSync(mkdtempSync(join(tmpdir(), 'hailo-fuzz-')));
          const what = `${e.rel.slice(0, at + 1).join('/')} -> ${where} (${target})`;
          try {
            const root = join(top, 'root');
            const outside = join(top, 'outside');
            mkdirSync(root);
            mkdirSync(outside);
            e.prepare?.(root);
            layLinked(root, outside, e, at, where, target);
            const before = snapshot(outside);
            const r = await e.run(root);
            assert.deepEqual(snapshot(outside), before, `${what}: nothing outside was written`);
            assert.ok(!r.text.includes(MARK), `${what}: no outside byte shown: ${r.text}`);
            const leaf = at === e.rel.length - 1;
            if (e.kind === 'read') {
              const works = where === 'in' && !(e.walk && !leaf);
              assert.equal(r.ok, works, `${what}: ${works ? 'a link inside works' : 'refused or not entered'} (${r.text})`);
            } else if (leaf) {
              // The file's own name is a link: replaced by the written file, the link's target untouched.
              assert.ok(r.ok, `${what}: written (${r.text})`);
              assert.ok(!lstatSync(join(root, ...e.rel)).isSymbolicLink(), `${what}: the link was replaced`);
            } else {
              assert.ok(!r.ok, `${what}: a write through a linked folder is refused`);
              assert.match(r.text, /is a symbolic link/);
              if (where === 'in')
                assert.match(readFileSync(join(root, `.real-${at}`, ...e.rel.slice(at)), 'utf8'), new RegExp(MARK), `${what}: the inside target is untouched`);
            }
          } finally {
            rmSync(top, { recursive: true, force: true });
          }
        }
      }
    }
  });
}
