// Where a DFC error belongs: a statement (or one argument) of the `.alls` script, analysed with
// the `.alls` core so nested calls, comments and line continuations are handled like the editor
// does; or a node of the ONNX graph (positions from the caller's index, e.g. the graph view).
import { analyze, type AllsDocument } from '../alls/analysis';
import type { ArgNode } from '../alls/ast';
import type { OnnxNodeIndex, Place } from './types';

export type { Place };

export class ScriptLocator {
  private doc: AllsDocument | undefined;
  private readonly lines: string[];

  constructor(readonly text: string) {
    this.lines = text.split(/\r\n|\r|\n/);
  }

  private get analysis(): AllsDocument {
    this.doc ??= analyze(this.text);
    return this.doc;
  }

  lineCount(): number {
    return this.lines.length;
  }

  lineText(line: number): string | undefined {
    return this.lines[line - 1];
  }

  private place(start: number, end: number): Place {
    const a = this.analysis.lines.positionAt(start);
    const b = this.analysis.lines.positionAt(Math.max(start, end));
    return { line: a.line + 1, column: a.character + 1, endLine: b.line + 1, endColumn: b.character + 1 };
  }

  /** The whole line `line` (1-based), or undefined past the end. */
  wholeLine(line: number): Place | undefined {
    const t = this.lines[line - 1];
    if (t === undefined) return undefined;
    return { line, column: 1, endLine: line, endColumn: t.length + 1 };
  }

  /** Statements calling `command` (e.g. `nms_postprocess`), in order. */
  statements(command: string): {
    place: Place;
    keyword(name: string): { arg: Place; value: Place; text: string } | undefined;
    /** The first positional string argument (a config path), if any. */
    firstString?: Place;
    text: string;
  }[] {
    const out = [];
    const doc = this.analysis;
    for (const st of doc.statements) {
      const call = st.node.call;
      if (!call || call.name.text !== command) continue;
      const kw = (name: string) => {
        const a: ArgNode | undefined = call.args.find((x) => x.keyword?.text === name);
        if (!a) return undefined;
        return { arg: this.place(a.start, a.end), value: this.place(a.value.start, a.value.end), text: doc.text.slice(a.value.start, a.value.end) };
      };
      const str = call.args.find((x) => !x.keyword && x.value.kind === 'string');
      out.push({
        place: this.place(st.node.start, st.node.end),
        keyword: kw,
        firstString: str ? this.place(str.value.start, str.value.end) : undefined,
        text: doc.text.slice(st.node.start, st.node.end),
      });
    }
    return out;
  }

  /** Every `name=` keyword of the script, with its command (`No argument named NAME`). */
  keywordPlaces(name: string): { command: string; place: Place }[] {
    const out: { command: string; place: Place }[] = [];
    const doc = this.analysis;
    for (const st of doc.statements) {
      const call = st.node.call;
      if (!call) continue;
      for (const a of call.args) if (a.keyword?.text === name) out.push({ command: call.name.text, place: this.place(a.keyword.start, a.keyword.end) });
    }
    return out;
  }

  /** Statements whose text mentions `word` as a whole word (a layer or command name). */
  mentioning(word: string): Place[] {
    const doc = this.analysis;
    const re = new RegExp(`(^|[^\\w/])${escapeRegExp(word)}(?![\\w])`);
    const out: Place[] = [];
    for (const st of doc.statements) {
      const t = doc.text.slice(st.node.start, st.node.end);
      const m = re.exec(t);
      if (m) out.push(this.place(st.node.start + m.index + m[1].length, st.node.start + m.index + m[1].length + word.length));
    }
    return out;
  }

  /**
   * Finds the line the DFC echoed (`>!<` marks the column) — the DFC may number lines per
   * statement, so the echo is the better witness than its `(line:L)`. Prefers the line nearest
   * to `hintLine`. Returns the 1-based line and the marked column, or undefined.
   */
  findEcho(echo: string, hintLine: number | null): { line: number; column: number } | undefined {
    const mark = echo.indexOf('>!<');
    const clean = (mark >= 0 ? echo.slice(0, mark) + echo.slice(mark + 3) : echo).trim();
    if (!clean) return undefined;
    const lead = mark >= 0 ? echo.slice(0, mark).replace(/^\s+/, '') : '';
    let best: { line: number; column: number } | undefined;
    for (let i = 0; i < this.lines.length; i++) {
      const raw = this.lines[i];
      if (raw.trim() !== clean) continue;
      const indent = raw.length - raw.trimStart().length;
      const cand = { line: i + 1, column: indent + lead.length + 1 };
      if (!best || (hintLine !== null && Math.abs(cand.line - hintLine) < Math.abs(best.line - hintLine))) best = cand;
    }
    return best;
  }
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An index over an ONNX graph's node names and tensor producers, from any node list. */
export function nodeIndexFrom(
  nodes: readonly { name: string; opType: string; outputs: readonly string[] }[],
  placeOf?: (name: string) => Place | undefined,
): OnnxNodeIndex {
  const names = new Map<string, string>();
  const producer = new Map<string, string>();
  for (const n of nodes) {
    if (n.name) names.set(n.name, n.opType);
    for (const o of n.outputs) if (o) producer.set(o, n.name);
  }
  return {
    hasNode: (name) => names.has(name),
    producerOf: (tensor) => producer.get(tensor),
    opOf: (name) => names.get(name),
    placeOf,
  };
}
