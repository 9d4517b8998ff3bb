// Bytes → script text for hosts that read files themselves (the CLI). A UTF-8 BOM is dropped;
// invalid UTF-8 is decoded with replacement characters and reported once, at the first bad byte.
import type { Diagnostic } from '../common/types';
import { LineIndex } from './lineIndex';

export function decodeScript(bytes: Uint8Array): { text: string; diagnostics: Diagnostic[] } {
  let body = bytes;
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), diagnostics: [] };
  } catch {
    const text = new TextDecoder('utf-8').decode(body);
    const at = Math.max(0, text.indexOf('\uFFFD'));
    const pos = new LineIndex(text).positionAt(at);
    return {
      text,
      diagnostics: [
        {
          range: { start: pos, end: { line: pos.line, character: pos.character + 1 } },
          severity: 'error',
          code: 'alls/invalid-encoding',
          message: 'The file is not valid UTF-8; it was read with replacement characters (U+FFFD). Model scripts are plain ASCII in every Hailo script.',
        },
      ],
    };
  }
}

/**
 * Put the encoding diagnostic in front of the checker's, dropping the checker's duplicate
 * "invalid character U+FFFD" at the same place (one problem, one message).
 */
export function mergeEncodingDiagnostics(encoding: Diagnostic[], diagnostics: Diagnostic[]): Diagnostic[] {
  if (encoding.length === 0) return diagnostics;
  const at = (d: Diagnostic) => `${d.range.start.line}:${d.range.start.character}`;
  const taken = new Set(encoding.map(at));
  return [...encoding, ...diagnostics.filter((d) => !(d.code === 'alls/invalid-character' && taken.has(at(d))))];
}
