// Logger formats nobody listed (issue 30, docs/research/dfc-unseen-misses.md class B): each one is
// composed, from a seeded PRNG, of the parts loggers put before a line — a timestamp in one of many
// styles, a level word or letter in some casing, bracketed or padded, a pid or thread, a dotted
// logger name, a `file.py:N` column, a host — joined by one of the separators loggers use. A format
// is applied to every line of a log (blank lines included, as a logger prints them), so the reading
// of the prefixed log must equal the reading of the plain one (test/unit/dfc/dfc-logger-shapes.test.ts,
// scripts/dfc-logger-shapes.mjs for more seeds). The parts follow real loggers' conventions
// (Python logging's `%(asctime)s`/`%(levelname)-8s`/`%(filename)s:%(lineno)d`, syslog's `Mmm dd
// hh:mm:ss`, glog's level letters, spdlog's brackets), not the reader's patterns.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../../server/src/core/common/prng';
import { readDfcLog, type DfcReport } from '../../server/src/core/dfc';
import { corpusCases, READ_PARTS } from './dfcCorpus';
import { repoRoot } from './shared';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const pad2 = (n: number) => String(n).padStart(2, '0');

type Lv = 'INFO' | 'WARNING' | 'ERROR';

/** The DFC's own level of a line (`[error] …`), for a relay that logs each line at its level. */
export function levelOf(line: string): Lv {
  const m = /^\s*\[(\w+)\]/.exec(line);
  const w = m?.[1].toLowerCase();
  return w === 'error' || w === 'critical' ? 'ERROR' : w === 'warning' || w === 'warn' ? 'WARNING' : 'INFO';
}

/** One part of a prefix: its text on line i at level lv. */
type Part = (i: number, lv: Lv) => string;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function timestamp(r: Rand): { part: Part; label: string } {
  const day = 1 + Math.floor(r() * 28);
  const month = Math.floor(r() * 12);
  const start = 3600 * Math.floor(r() * 24) + Math.floor(r() * 3600);
  // Seconds that grow line by line, with a fraction that changes.
  const clock = (i: number) => {
    const s = start + Math.floor(i / 3);
    return `${pad2(Math.floor(s / 3600) % 24)}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
  };
  const frac = (i: number, digits: number) => String((i * 7919 + 123457) % 10 ** digits).padStart(digits, '0');
  const style = pick(r, ['iso-t', 'iso-space', 'python', 'syslog', 'epoch', 'us-slash', 'iso-zone'] as const);
  const date = `2026-${pad2(month + 1)}-${pad2(day)}`;
  switch (style) {
    case 'iso-t': {
      const digits = pick(r, [0, 3, 6, 9]);
      const z = pick(r, ['Z', '', '+01:00', '-0500']);
      return { label: `iso-t.${digits}${z}`, part: (i) => `${date}T${clock(i)}${digits ? `.${frac(i, digits)}` : ''}${z}` };
    }
    case 'iso-space': {
      const digits = pick(r, [0, 3, 6]);
      return { label: `iso-space.${digits}`, part: (i) => `${date} ${clock(i)}${digits ? `.${frac(i, digits)}` : ''}` };
    }
    case 'python':
      return { label: 'python-asctime', part: (i) => `${date} ${clock(i)},${frac(i, 3)}` };
    case 'iso-zone':
      return { label: 'iso-utc', part: (i) => `${date} ${clock(i)}.${frac(i, 3)} UTC` };
    case 'syslog':
      // syslog pads a one-digit day with a space (`Dec  6`).
      return { label: 'syslog', part: (i) => `${MONTHS[month]} ${String(day).padStart(2, ' ')} ${clock(i)}` };
    case 'us-slash':
      return { label: 'us-slash', part: (i) => `${pad2(month + 1)}/${pad2(day)}/2026 ${clock(i)}` };
    case 'epoch': {
      const digits = pick(r, [3, 6]);
      return { label: `epoch.${digits}`, part: (i) => `${1796000000 + start + Math.floor(i / 3)}.${frac(i, digits)}` };
    }
  }
}

function level(r: Rand, each: boolean): { part: Part; label: string; squareOk: boolean } {
  const letter = r() < 0.25;
  // Letters are upper case (glog's `I`, `W`, `E`); words come in any casing.
  const casing = pick(r, ['upper', 'lower', 'title'] as const);
  const short = r() < 0.5;
  const word = (lv: Lv) => {
    if (letter) return lv[0];
    const w = short && lv === 'WARNING' ? 'WARN' : lv;
    return casing === 'lower' ? w.toLowerCase() : casing === 'title' ? w[0] + w.slice(1).toLowerCase() : w;
  };
  const padded = !letter && r() < 0.4 ? pick(r, [5, 7, 8]) : 0;
  // Never the DFC's own tag form (`[info]`: a lower-case word in square brackets, spdlog's `[%l]`): a
  // line in that form says the level it was printed at — the reader takes it as the line's own
  // (normalise.ts, as HailoRT's prefix), so a relay writing it over every line is not a neutral wrapper.
  const squareOk = letter || casing !== 'lower';
  return {
    label: `level${letter ? '-letter' : `-${casing}`}${padded ? `-pad${padded}` : ''}${each ? '' : '-relay'}`,
    part: (_i, lv) => word(each ? lv : 'INFO').padEnd(padded),
    squareOk,
  };
}

function pid(r: Rand): { part: Part; label: string } {
  const p = 1000 + Math.floor(r() * 60000);
  const style = pick(r, ['pid', 'pid-tid', 'thread-hex', 'pid=']);
  const tid = (i: number) => p + 1 + ((i >> 4) % 3);
  switch (style) {
    case 'pid':
      return { label: 'pid', part: () => String(p) };
    case 'pid-tid':
      return { label: 'pid:tid', part: (i) => `${p}:${tid(i)}` };
    case 'thread-hex':
      return { label: 'thread-hex', part: (i) => `0x7f${(0xa2b3c400 + ((i >> 4) % 3) * 0x100).toString(16)}` };
    default:
      return { label: 'pid=', part: () => `pid=${p}` };
  }
}

const NAMES = ['compile_model', 'hailo_job.runner', 'app.pipeline.dfc', 'edge_box.compile.worker', 'myproj.tools.hailo_build', 'root'];
const FILES = ['compile.py', 'runner.py', 'pipeline.cpp', 'worker.cc', 'build_hef.py', 'main.go'];

function logger(r: Rand): { part: Part; label: string } {
  const name = pick(r, NAMES);
  return { label: `logger:${name}`, part: () => name };
}

function fileLine(r: Rand): { part: Part; label: string } {
  const files = [pick(r, FILES), pick(r, FILES)];
  const withFunc = r() < 0.3;
  return {
    label: `file:line${withFunc ? ':func' : ''}`,
    part: (i) => `${files[(i >> 3) % 2]}:${20 + ((i * 37) % 400)}${withFunc ? ':run' : ''}`,
  };
}

function host(r: Rand): { part: Part; label: string } {
  const h = pick(r, ['gpu-box-01', 'edge7', 'rpi5-hailo', 'ip-10-0-3-17', 'build.lab.local']);
  return { label: 'host', part: () => h };
}

const SEPARATORS = [' - ', ' | ', ': ', '\t', ' ', ' :: ', ' '] as const;
const BRACKETS = [
  ['[', ']'],
  ['(', ')'],
  ['<', '>'],
] as const;

export interface LoggerShape {
  /** What the format is made of, for a failure's message. */
  label: string;
  prefix: (i: number, line: string) => string;
}

/**
 * One logger format: 2–5 parts — at least a timestamp, a level or a `file:line` column, the fields a
 * logger always has — in some order (a timestamp first when there is one, as almost every logger does),
 * each bracketed or not, with one separator between fields and one before the message.
 */
export function loggerShape(seed: number): LoggerShape {
  const r = prng(seed);
  const each = r() < 0.6;
  const wanted: { part: Part; label: string; kind: string; squareOk?: boolean }[] = [];
  const add = (p: { part: Part; label: string; squareOk?: boolean }, kind: string) => wanted.push({ ...p, kind });
  const hasTime = r() < 0.85;
  if (hasTime) add(timestamp(r), 'time');
  const extras: [string, () => { part: Part; label: string; squareOk?: boolean }][] = [
    ['level', () => level(r, each)],
    ['pid', () => pid(r)],
    ['logger', () => logger(r)],
    ['file', () => fileLine(r)],
    ['host', () => host(r)],
  ];
  const count = (hasTime ? 1 : 2) + Math.floor(r() * 3);
  const chosen = new Set<string>();
  // A format without a time has a level or a file column (a logger's fields; a bare pid or name is not one).
  if (!hasTime) chosen.add(r() < 0.7 ? 'level' : 'file');
  while (chosen.size < count) chosen.add(pick(r, extras)[0]);
  const rest = extras.filter(([k]) => chosen.has(k));
  // Shuffle the fields after the time.
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  for (const [k, make] of rest) add(make(), k);
  const between = pick(r, SEPARATORS);
  const last = pick(r, [between, between, ' - ', ': ', ' | ', ' ']);
  const bracketed = wanted.map((w) => {
    const br = r() < 0.3 ? pick(r, BRACKETS) : null;
    return br && br[0] === '[' && w.squareOk === false ? BRACKETS[1] : br;
  });
  // Bracketed fields are joined by a space, as spdlog and ROS print them (`[time] [level] `).
  const fields = wanted.map((w, k) => ({ ...w, br: bracketed[k] }));
  const label = `${fields.map((f) => (f.br ? `${f.br[0]}${f.label}${f.br[1]}` : f.label)).join(JSON.stringify(between))}${JSON.stringify(last)}`;
  return {
    label,
    prefix: (i, line) => {
      const lv = levelOf(line);
      let s = '';
      fields.forEach((f, k) => {
        const text = f.part(i, lv);
        const v = f.br ? `${f.br[0]}${text.trimEnd()}${f.br[1]}${text.slice(text.trimEnd().length)}` : text;
        const sep = k === fields.length - 1 ? (f.br ? (last === between ? ' ' : last) : last) : f.br && fields[k + 1].br ? ' ' : between;
        s += v + sep;
      });
      return s;
    },
  };
}

/**
 * The DFC's own log file (`hailo_sdk.client.log`, docs/research/dfc-unseen-misses.md, unseen7/): Python
 * logging's `%(asctime)s - %(levelname)s - %(filename)s:%(lineno)d - %(message)s`, each line at its level.
 */
export function dfcLogFileShape(): LoggerShape {
  // File names that name no stage: the words before a quoted class are read from the line as printed,
  // a relay's column included (errors.ts), so `parser.py` there would say "parse" on any reader.
  const files = ['client_runner.py', 'hailo_nn.py', 'common.py', 'tf_utils.py'];
  return {
    label: 'dfc-log-file',
    prefix: (i, line) =>
      `2025-06-28 08:${pad2(10 + (Math.floor(i / 60) % 50))}:${pad2(i % 60)},${String((i * 37) % 1000).padStart(3, '0')} - ${levelOf(line)} - ${files[(i >> 2) % 4]}:${100 + ((i * 7) % 900)} - `,
  };
}

/** Every line of a log behind one format (line i gets the format's fields for line i). */
export function applyShape(shape: LoggerShape, lines: string[]): string[] {
  return lines.map((l, i) => shape.prefix(i, l) + l);
}

export interface Reading {
  outcome: DfcReport['outcome'];
  failedStage: DfcReport['failedStage'];
  codes: string[];
  nodes: string[];
}

/** What a reading is compared on: outcome, failed stage, diagnostic codes with severity, the nodes named. */
export function reading(text: string): Reading {
  const r = readDfcLog(text, { logPath: 'run.log' });
  return {
    outcome: r.outcome,
    failedStage: r.failedStage,
    codes: [...new Set(r.diagnostics.map((d) => `${d.code}:${d.severity}`))].sort(),
    nodes: [...new Set(r.diagnostics.flatMap((d) => (d.node ? [d.node] : [])))].sort(),
  };
}

export interface ShapeLog {
  name: string;
  lines: string[];
}

export function shapeLogs(): ShapeLog[] {
  const fixtures = join(repoRoot, 'test', 'fixtures', 'dfc');
  const fixtureDirs = readdirSync(fixtures, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(fixtures, d.name));
  return [...READ_PARTS.flatMap((p) => corpusCases(p)), ...fixtureDirs].map((dir) => ({
    name: dir.split('/').slice(-2).join('/'),
    lines: readFileSync(join(dir, 'run.log'), 'utf8').replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n'),
  }));
}

/** Lines a template must repeat on before the reader takes it (logShape.ts's MIN_SUPPORT): thinner evidence is left alone on purpose. */
export const MIN_LINES = 4;

/**
 * A log the generated formats are asserted on: at least MIN_LINES lines that say something, and not
 * every one of them indented (an excerpt from inside a traceback: behind a padded level column, whether
 * the spaces are the column's or the line's own cannot be told from the log).
 */
export function shapeable(log: ShapeLog): boolean {
  const said = log.lines.filter((l) => l.trim() !== '');
  return said.length >= MIN_LINES && said.some((l) => !/^\s/.test(l));
}

export interface ShapeRun {
  pairs: number;
  differ: string[];
}

/** Each log behind one format: the logs whose reading changed. */
export function runShape(logs: ShapeLog[], shape: LoggerShape): string[] {
  const differ: string[] = [];
  for (const log of logs) {
    const plain = reading(`${log.lines.join('\n')}\n`);
    const shaped = reading(`${applyShape(shape, log.lines).join('\n')}\n`);
    if (JSON.stringify(shaped) !== JSON.stringify(plain)) differ.push(`${log.name}: ${JSON.stringify(shaped)} ≠ ${JSON.stringify(plain)}`);
  }
  return differ;
}

/** Each log through `perLog` formats drawn from `seed`: the pairs whose reading changed. */
export function runShapes(logs: ShapeLog[], seed: number, perLog: number): ShapeRun {
  const differ: string[] = [];
  let pairs = 0;
  logs.forEach((log, n) => {
    const plain = reading(`${log.lines.join('\n')}\n`);
    for (let k = 0; k < perLog; k++) {
      const s = (seed * 1_000_003 + n * 131 + k) >>> 0;
      const shape = loggerShape(s);
      const shaped = reading(`${applyShape(shape, log.lines).join('\n')}\n`);
      pairs++;
      if (JSON.stringify(shaped) !== JSON.stringify(plain))
        differ.push(`${log.name} [format ${s}: ${shape.label}]: ${JSON.stringify(shaped)} ≠ ${JSON.stringify(plain)}`);
    }
  });
  return { pairs, differ };
}
