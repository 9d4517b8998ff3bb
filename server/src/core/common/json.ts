// The one way a JSON file from a folder is parsed. V8's JSON.parse is iterative (it takes JSON
// nested 10⁶ deep), but everything that walks the value afterwards — JSON.stringify, printing a
// param, copying a config — recurses once per level, so nesting is bounded before anything is
// parsed: one linear scan, `LIMITS.jsonNesting`. A syntax error is reported by line and column
// only: V8's message quotes the text ("Unexpected token 'a', "…" is not valid JSON"), and a file
// we refuse must not be shown (SECURITY.md).
import { parse, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { limit, LimitError, limitMessage } from './limits';

/** A file that is not JSON; the message names the file and the place, never its bytes. */
export class JsonFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonFileError';
  }
}

/**
 * The deepest nesting of brackets in `text` outside strings, stopping as soon as it passes `max`
 * (so a hostile file costs one pass at most). Not a validator: JSON.parse checks the syntax.
 */
export function jsonNestingDepth(text: string, max = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return deepest;
}

/** Throws a LimitError when `text` nests deeper than `LIMITS.jsonNesting`. */
export function checkJsonNesting(text: string, what: string): void {
  const max = limit('jsonNesting');
  const depth = jsonNestingDepth(text, max);
  if (depth > max) throw new LimitError('jsonNesting', limitMessage('jsonNesting', what, `more than ${max} levels`));
}

/**
 * A JSON file's text parsed, with its nesting bounded first. `what` names the file in the messages
 * (a path or a role). Throws a LimitError (too deep) or a JsonFileError (not JSON).
 */
export function parseFileJson(text: string, what: string, reviver?: (this: unknown, key: string, value: unknown) => unknown): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  checkJsonNesting(body, what);
  try {
    return JSON.parse(body, reviver) as unknown;
  } catch (err) {
    if (err instanceof SyntaxError) throw new JsonFileError(`${what} is not valid JSON${where(body)}`);
    throw err;
  }
}

/**
 * The jsonc-parser tree of a JSON file (for readers that report findings at a place in the file),
 * with its nesting bounded first: jsonc-parser's parser recurses once per level.
 */
export function parseFileJsonTree(text: string, what: string, errors: ParseError[] = [], options?: Parameters<typeof parseTree>[2]): Node | undefined {
  checkJsonNesting(text, what);
  return parseTree(text, errors, options);
}

/**
 * " (line L, column C)" of the first syntax error, found again by jsonc-parser (V8's message quotes
 * the text and gives no place). The nesting is already bounded, so its recursion is too.
 */
function where(text: string): string {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (!errors.length) return '';
  const at = Math.min(errors[0].offset, text.length);
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return at >= text.length ? ' (it ends early)' : ` (line ${line}, column ${at - start + 1})`;
}
