// Scripts written by others with known mistakes (community, third-party corpora): each listed
// mistake must be an error quoting its evidence, and nothing else may be an error.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { analyze } from '../../server/src/core/alls/analysis';
import { checkDocument } from '../../server/src/core/alls/rules';

/** A script's known mistakes: `line:column` (1-based), the code, what its message must quote. */
export type KnownMistakes = Record<string, { at: string; code: string; evidence: RegExp }[]>;

/** What differs from `mistakes` (missing errors, errors without their evidence, false errors); [] when all agree. */
export function mistakeMismatches(files: string[], mistakes: KnownMistakes, hwArchOf: (name: string) => string): string[] {
  const wrong: string[] = [];
  for (const f of files) {
    const name = basename(f);
    const errors = checkDocument(analyze(readFileSync(f, 'utf8')), { settings: { hwArch: hwArchOf(name) } }).filter((d) => d.severity === 'error');
    const expected = mistakes[name] ?? [];
    for (const e of expected) {
      const hit = errors.find((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}` === e.at && d.code === e.code);
      if (!hit) wrong.push(`${name}: missing error ${e.at} ${e.code}`);
      else if (!e.evidence.test(hit.message)) wrong.push(`${name}: ${e.code} does not quote its evidence: ${hit.message}`);
    }
    for (const d of errors) {
      const at = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
      if (!expected.some((e) => e.at === at && e.code === d.code)) wrong.push(`${name}:${at} false error ${d.code} ${d.message}`);
    }
  }
  return wrong;
}
