// How findings name what they saw: value kinds, slots, shortened words, word lists, model-zoo use.
import type { ValueNode } from '../ast';
import { isBoolWord, isNoneWord } from '../analysis';
import type { ZooUse } from '../schemaTypes';

export const DESCRIBE_KIND: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  bool: '`True`/`False`',
  none: '`None`',
  enum: 'one of its words',
  layer: 'a layer name',
  glob: 'a `{pattern}`',
  layerList: 'a `[list]` of layer names',
  string: 'a "string"',
  duration: 'a duration like `30m`',
  numberList: 'a `[list]` of numbers',
  intList: 'a `[list]` of integers',
  enumList: 'a `[list]` of words',
  name: 'a name',
  any: 'a value',
};

export function describeValue(v: ValueNode): string {
  switch (v.kind) {
    case 'name':
      return isBoolWord(v.text) ? `the boolean \`${v.text}\`` : isNoneWord(v.text) ? '`None`' : `the word \`${short(v.text)}\``;
    case 'number':
      return `the number \`${v.text}\``;
    case 'string':
      return 'a string';
    case 'glob':
      return `the pattern \`${short(v.text)}\``;
    case 'list':
      return 'a list';
    case 'dict':
      return 'a dictionary';
    default:
      return 'nothing';
  }
}

/** How messages name a value's slot: the keyword `precision_mode`, or the positional `place(cluster)`. */
export function slotLabel(name: string, command: string | undefined): string {
  return command === undefined ? name : `${command}(${name})`;
}

export function short(s: string, n = 60): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}

export function listWords(words: string[], max = 12): string {
  const shown = words.slice(0, max).map((w) => `\`${w}\``);
  return shown.join(', ') + (words.length > max ? `, … (${words.length} in all)` : '');
}

/** `model zoo v1.0–v5.0.0, 67 script versions`. */
export function zooText(z: ZooUse): string {
  return `model zoo ${z.releases}, ${z.scripts} script version${z.scripts === 1 ? '' : 's'}`;
}
