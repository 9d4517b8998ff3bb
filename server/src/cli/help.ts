// Help text of the CLI: option and command tables whose description column fits the longest name.
// (A hand-padded column breaks as soon as a longer name is added: `accuracyone table …`.)
import { maxOf } from '../core/common/arrays';

/** [name, description]; a description's further lines are separated by '\n'. */
export type HelpRow = readonly [name: string, description: string];

/**
 * "  NAME  description" rows: names padded to the longest one, then two spaces; a description's
 * further lines start under its first.
 */
export function helpTable(rows: readonly HelpRow[], indent = 2): string {
  const width = Math.max(0, maxOf(rows.map(([name]) => name.length)));
  const margin = ' '.repeat(indent);
  return rows.flatMap(([name, text]) => text.split('\n').map((line, i) => `${margin}${(i === 0 ? name : '').padEnd(width)}  ${line}`)).join('\n');
}
