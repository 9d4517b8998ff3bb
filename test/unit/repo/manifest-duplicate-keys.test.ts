// package.json is read by VS Code, npm and vsce with JSON.parse, which keeps the last of two equal
// keys without a word: a second `contributes.jsonValidation` (two branches each adding one) silently
// dropped the NMS configs' schema. Every object of the manifest has each key once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/shared';

/** Paths of keys that appear twice in one object (a small JSON scanner: strings, nesting, keys). */
function duplicateKeys(text: string): string[] {
  const found: string[] = [];
  const stack: { keys: Set<string>; path: string; isObject: boolean; expectKey: boolean; lastKey?: string }[] = [];
  let i = 0;
  const readString = () => {
    let out = '';
    for (i++; i < text.length && text[i] !== '"'; i++) out += text[i] === '\\' ? text[++i] : text[i];
    i++;
    return out;
  };
  while (i < text.length) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const s = readString();
      if (top?.isObject && top.expectKey) {
        if (top.keys.has(s)) found.push(`${top.path}.${s}`);
        top.keys.add(s);
        top.lastKey = s;
        top.expectKey = false;
      }
      continue;
    }
    if (c === '{' || c === '[') {
      const path = top ? (top.isObject ? `${top.path}.${top.lastKey}` : `${top.path}[]`) : '';
      stack.push({ keys: new Set(), path, isObject: c === '{', expectKey: c === '{' });
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top?.isObject) top.expectKey = true;
    i++;
  }
  return found;
}

test('package.json: no object has a key twice (JSON.parse would drop the first)', () => {
  assert.deepEqual(duplicateKeys('{"a": 1, "b": {"c": 2, "c": 3}, "a": [ {"x": "\\"a\\""} ]}'), ['.b.c', '.a']);
  assert.deepEqual(duplicateKeys(readFileSync(join(repoRoot, 'package.json'), 'utf8')), []);
});
