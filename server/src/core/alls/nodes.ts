// The classes the parser builds the syntax tree from (the shapes are ast.ts's interfaces).
//
// Why classes and not object literals: V8 tracks each object literal by its allocation site and,
// once a site's objects keep surviving young-generation collections (a 1 MB allocator dump makes
// ~10⁵ nodes at a time), allocates them straight into the old generation. When those trees are
// then dropped (the next file of a check, a closed document) it finds the old generation full of
// garbage, un-pretenures, re-optimizes and runs full collections: parse + check of
// vit_base_bn.alls swung between ~20 and ~32 ms from one process to the next. Objects made by a
// constructor have no allocation site: trees are born young and, when dropped, die young (steady
// ~20 ms; didOpen over the server faster too). The cost: a tree that is kept is copied on its way
// to the old generation, so re-analysing a whole script while the previous tree is still held is
// a few ms slower. Every field is set in the constructor, in one order (one hidden class per node
// kind); `declare` fields only type what the constructor assigns.
import type {
  ArgNode,
  CallNode,
  DictEntry,
  DictNode,
  GlobNode,
  ListNode,
  MissingNode,
  NameNode,
  NumberNode,
  StatementNode,
  StringNode,
  TargetNode,
  ValueNode,
} from './ast';

export class NameNodeObject implements NameNode {
  declare kind: 'name';
  declare start: number;
  declare end: number;
  declare text: string;
  constructor(start: number, end: number, text: string) {
    this.kind = 'name';
    this.start = start;
    this.end = end;
    this.text = text;
  }
}

export class NumberNodeObject implements NumberNode {
  declare kind: 'number';
  declare start: number;
  declare end: number;
  declare text: string;
  declare value: number;
  constructor(start: number, end: number, text: string, value: number) {
    this.kind = 'number';
    this.start = start;
    this.end = end;
    this.text = text;
    this.value = value;
  }
}

export class StringNodeObject implements StringNode {
  declare kind: 'string';
  declare start: number;
  declare end: number;
  declare text: string;
  declare value: string;
  declare quote: '"' | "'";
  declare terminated: boolean;
  constructor(start: number, end: number, text: string, value: string, quote: '"' | "'", terminated: boolean) {
    this.kind = 'string';
    this.start = start;
    this.end = end;
    this.text = text;
    this.value = value;
    this.quote = quote;
    this.terminated = terminated;
  }
}

export class GlobNodeObject implements GlobNode {
  declare kind: 'glob';
  declare start: number;
  declare end: number;
  declare text: string;
  declare pattern: string;
  constructor(start: number, end: number, text: string, pattern: string) {
    this.kind = 'glob';
    this.start = start;
    this.end = end;
    this.text = text;
    this.pattern = pattern;
  }
}

export class ListNodeObject implements ListNode {
  declare kind: 'list';
  declare start: number;
  declare end: number;
  declare items: ValueNode[];
  declare close: number;
  constructor(start: number, end: number, items: ValueNode[], close: number) {
    this.kind = 'list';
    this.start = start;
    this.end = end;
    this.items = items;
    this.close = close;
  }
}

export class DictEntryObject implements DictEntry {
  declare key: ValueNode;
  declare value: ValueNode;
  constructor(key: ValueNode, value: ValueNode) {
    this.key = key;
    this.value = value;
  }
}

export class DictNodeObject implements DictNode {
  declare kind: 'dict';
  declare start: number;
  declare end: number;
  declare entries: DictEntry[];
  declare close: number;
  constructor(start: number, end: number, entries: DictEntry[], close: number) {
    this.kind = 'dict';
    this.start = start;
    this.end = end;
    this.entries = entries;
    this.close = close;
  }
}

export class MissingNodeObject implements MissingNode {
  declare kind: 'missing';
  declare start: number;
  declare end: number;
  constructor(start: number, end: number) {
    this.kind = 'missing';
    this.start = start;
    this.end = end;
  }
}

export class ArgNodeObject implements ArgNode {
  declare start: number;
  declare end: number;
  declare keyword: NameNode | undefined;
  declare value: ValueNode;
  constructor(start: number, end: number, keyword: NameNode | undefined, value: ValueNode) {
    this.start = start;
    this.end = end;
    this.keyword = keyword;
    this.value = value;
  }
}

export class CallNodeObject implements CallNode {
  declare start: number;
  declare end: number;
  declare object: NameNode | undefined;
  declare name: NameNode;
  declare open: number;
  declare close: number;
  declare args: ArgNode[];
  constructor(start: number, end: number, object: NameNode | undefined, name: NameNode, open: number, close: number, args: ArgNode[]) {
    this.start = start;
    this.end = end;
    this.object = object;
    this.name = name;
    this.open = open;
    this.close = close;
    this.args = args;
  }
}

/** A statement as it starts: no targets, no call, not broken; the parser fills it in. */
export class StatementNodeObject implements StatementNode {
  declare start: number;
  declare end: number;
  declare targets: TargetNode[];
  declare assign: number;
  declare broken: boolean;
  declare firstToken: number;
  declare endToken: number;
  declare call: CallNode | undefined;
  constructor(start: number, end: number, firstToken: number) {
    this.start = start;
    this.end = end;
    this.targets = [];
    this.assign = -1;
    this.broken = false;
    this.firstToken = firstToken;
    this.endToken = firstToken;
    this.call = undefined;
  }
}
