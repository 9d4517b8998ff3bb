// The typed message protocol between an extension host panel and its page (the way
// vscode-hexeditor shares one protocol module between its host and its webview:
// https://github.com/microsoft/vscode-hexeditor/blob/main/shared/protocol.ts). Each panel's
// protocols/<panel>.ts declares `ToPage` (host → page) and `FromPage` (page → host) as
// discriminated unions on `type`, plus the runtime description of `FromPage` (`Schema`) that the
// host checks every page message against: a page is a browser context, so what it posts is data
// to validate, not a value of its type. Both sides switch over the union with `unhandled` in the
// default branch, so a message nobody handles is a compile error. Pure: no vscode, no DOM.

export interface Message {
  type: string;
}

/** How one field of a page message is checked at the host. */
export type FieldKind<T> = [T] extends [boolean]
  ? 'boolean'
  : [T] extends [number]
    ? 'number' | 'index'
    : [T] extends [readonly number[]]
      ? 'indexes'
      : [T] extends [string]
        ? string extends T
          ? 'string'
          : readonly T[]
        : 'unknown';

type Variant<U extends Message, K extends U['type']> = Extract<U, { type: K }>;

/**
 * The runtime description of a `FromPage` union: one entry per message type, one kind per field
 * (`index`: a non-negative integer, `indexes`: an array of them, a string array: one of those
 * literals, `unknown`: anything, checked by the handler). The type makes it complete: a message
 * type or a field left out, or a kind that does not fit the field's type, does not compile.
 */
export type Schema<U extends Message> = {
  readonly [K in U['type']]: { readonly [F in Exclude<keyof Variant<U, K>, 'type'>]-?: FieldKind<Variant<U, K>[F]> };
};

type AnyKind = 'boolean' | 'number' | 'index' | 'indexes' | 'string' | 'unknown' | readonly string[];

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function fits(kind: AnyKind, v: unknown): boolean {
  if (Array.isArray(kind)) return typeof v === 'string' && kind.includes(v);
  switch (kind) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'index':
      return isIndex(v);
    case 'indexes':
      return Array.isArray(v) && v.every(isIndex);
    case 'string':
      return typeof v === 'string';
    default:
      return true;
  }
}

const KIND_WORDS: Record<string, string> = {
  boolean: 'a boolean',
  number: 'a finite number',
  index: 'an index (an integer ≥ 0)',
  indexes: 'a list of indexes',
  string: 'a string',
};

export type Parsed<U> = { ok: true; message: U } | { ok: false; why: string };

/**
 * Checks a page message against its protocol: an object whose `type` the schema names and whose
 * fields fit their kinds. The message returned carries only the fields the protocol names.
 */
export function parseMessage<U extends Message>(schema: Schema<U>, raw: unknown): Parsed<U> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, why: `not a message object (${raw === null ? 'null' : typeof raw})` };
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string') return { ok: false, why: 'a message without a string type' };
  if (!Object.prototype.hasOwnProperty.call(schema, type)) return { ok: false, why: `unknown message type ${JSON.stringify(type.slice(0, 60))}` };
  const fields = (schema as Record<string, Record<string, AnyKind>>)[type];
  const message: Record<string, unknown> = { type };
  for (const [name, kind] of Object.entries(fields)) {
    const v = (raw as Record<string, unknown>)[name];
    if (!fits(kind, v))
      return { ok: false, why: `${type}: field ${name} is not ${Array.isArray(kind) ? `one of ${kind.join(', ')}` : KIND_WORDS[kind as string]}` };
    message[name] = v;
  }
  return { ok: true, message: message as U };
}

/**
 * The default branch of a switch over a protocol union: with every type handled, `m` is `never`
 * here, so a new message type nobody handles does not compile. At run time it does nothing (a
 * host gets only parsed messages; a page only what its host posts).
 */
export function unhandled(m: never): void {
  void m;
}

/** The status line under a page's buttons (what the last action did). */
export interface StatusMessage {
  type: 'status';
  text: string;
}

/**
 * The one message of the kit itself, not of a panel: the page posts it when its window's `load`
 * event fired (pages/lib/channel.ts), naming itself by its script's nonce; showPage.ts waits for it
 * before it replaces the page. The panels' channels leave it to showPage.ts.
 */
export interface PageLoaded {
  type: 'loaded';
  page: string;
}

export function isPageLoaded(raw: unknown): raw is PageLoaded {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'loaded' && typeof (raw as { page?: unknown }).page === 'string';
}
