// A variant's `.alls`: the base script with the variant's settings written in by the `.alls` core's
// own parser — a keyword already in the statement gets the new value in place, a statement without
// it gets `, keyword=value` before its `)`, and a setting with no statement gets one appended
// (`model_optimization_flavor(optimization_level=2, compression_level=1)`). Everything else keeps
// its bytes. The result is checked by the same rules as the editor (server/src/core/alls), so a value
// the DFC refuses stops the variant before a container starts. Pure.
import { parse } from '../alls/parser';
import type { Script, StatementNode } from '../alls/ast';
import { checkText } from '../alls';
import type { Diagnostic } from '../common/types';
import type { AllsSetting, AxisValue } from './plan';

export interface SettingEdit {
  setting: AllsSetting;
  value: Exclude<AxisValue, null>;
}

export class DeriveError extends Error {}

/** The base script parsed once; each variant derives from it. */
export class BaseScript {
  readonly script: Script;
  /** `command|target` → the statements that set it (every one is edited). */
  private readonly index = new Map<string, StatementNode[]>();

  constructor(readonly text: string) {
    this.script = parse(text);
    for (const st of this.script.statements) {
      const call = st.call;
      if (!call || call.object || st.targets.length) continue;
      const first = call.args[0];
      const target = first && !first.keyword ? squash(text.slice(first.start, first.end)) : '';
      const key = `${call.name.text}|${target}`;
      const list = this.index.get(key) ?? [];
      list.push(st);
      this.index.set(key, list);
    }
  }

  /** The script with `edits` written in and `appends` (whole statements) added at the end. */
  derive(edits: readonly SettingEdit[], appends: readonly string[] = [], header: readonly string[] = []): string {
    const text = this.text;
    const changes: { at: number; end: number; text: string; order: number }[] = [];
    const created = new Map<string, { setting: AllsSetting; parts: string[] }>();
    edits.forEach((e, order) => {
      const { command, target, keyword } = e.setting;
      const key = `${command}|${target ? squash(target) : ''}`;
      const value = formatValue(e.value, keyword);
      const found = this.index.get(key);
      if (!found) {
        const c = created.get(key) ?? { setting: e.setting, parts: [] };
        c.parts.push(`${keyword}=${value}`);
        created.set(key, c);
        return;
      }
      for (const st of found) {
        const call = st.call!;
        if (st.broken || call.close < 0) {
          throw new DeriveError(
            `the base script's ${command} statement at offset ${st.start} is broken (see its syntax error): fix it before sweeping ${keyword}.`,
          );
        }
        const arg = call.args.find((a) => a.keyword?.text === keyword);
        if (arg) changes.push({ at: arg.value.start, end: arg.value.end, text: value, order });
        else changes.push({ at: call.close, end: call.close, text: `${call.args.length ? ', ' : ''}${keyword}=${value}`, order });
      }
    });
    changes.sort((a, b) => b.at - a.at || b.order - a.order);
    let out = text;
    for (const c of changes) out = out.slice(0, c.at) + c.text + out.slice(c.end);
    const added: string[] = [];
    for (const { setting, parts } of created.values()) added.push(`${setting.command}(${setting.target ? `${setting.target}, ` : ''}${parts.join(', ')})`);
    for (const a of appends) if (a.trim()) added.push(a.trim());
    if (added.length) out = `${out}${out === '' || out.endsWith('\n') ? '' : '\n'}${added.join('\n')}\n`;
    return header.length ? `${header.map((h) => `# ${h.replace(/[\r\n]+/g, ' ')}`).join('\n')}\n${out}` : out;
  }
}

function squash(s: string): string {
  return s.replace(/\s+/g, '');
}

/** An axis value as `.alls` writes it: numbers and enum words bare, booleans True/False, anything else quoted. */
export function formatValue(v: Exclude<AxisValue, null>, keyword: string): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  if (/^[A-Za-z0-9_.+-]+$/.test(v) || /^[[{].*[\]}]$/.test(v)) return v;
  if (!v.includes('"')) return `"${v}"`;
  if (!v.includes("'")) return `'${v}'`;
  throw new DeriveError(`the value for ${keyword} holds both quote characters, which an .alls string cannot: ${JSON.stringify(v)}.`);
}

export interface ScriptCheck {
  errors: Diagnostic[];
  /** Warnings and infos the base script does not have (what this variant's settings bring). */
  newFindings: Diagnostic[];
}

/** The `.alls` rules over a derived script, for the architecture it compiles for; findings of the base script itself are left out. */
export function checkDerived(text: string, hwArch: string, baseFindings: ReadonlySet<string>): ScriptCheck {
  const all = checkText(text, { settings: { hwArch } });
  return {
    errors: all.filter((d) => d.severity === 'error'),
    newFindings: all.filter((d) => d.severity !== 'error' && !baseFindings.has(findingKey(d))),
  };
}

export const findingKey = (d: Diagnostic) => `${d.code}\u0000${d.message}`;
