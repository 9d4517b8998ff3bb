// Lenient protobuf decoding: decode the whole body at once when it is sound (fast path); when it
// is cut off or damaged, decode field by field so everything before (and beside) the damage is
// kept, and say precisely where decoding stopped: which field, at which file offset, how many
// bytes it promised and how many were there.
import * as protobuf from 'protobufjs';
import { n, type HefProblem } from './problems';
import { SKIPPED_FIELDS } from './schema';

/** A decoded message: protobufjs instance (defaults on the prototype, own props when present). */
export type Msg = protobuf.Message<object> & Record<string, unknown>;

export interface LenientResult {
  message: Msg;
  complete: boolean;
}

interface Ctx {
  /** File offset of bytes[0]. */
  base: number;
  problems: HefProblem[];
  /** Whether the buffer ends because the file ends (cut) rather than a length boundary. */
  cutAtEnd: boolean;
  depth: number;
}

const MAX_DEPTH = 64;

function describe(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.replace(/^index out of range: (\d+) \+ (\d+) > (\d+)$/, 'needs $2 bytes at $1, only $3 in range');
}

/**
 * Decodes `bytes` as `type`. `base` is the file offset of `bytes[0]`, `path` names the message in
 * messages (e.g. `ProtoHEFHef`), `cutAtEnd` says the bytes end where the file ends.
 */
export function decodeLenient(type: protobuf.Type, bytes: Uint8Array, base: number, path: string, problems: HefProblem[], cutAtEnd: boolean): LenientResult {
  // protobufjs reports damage by throwing; stack traces are never shown, and capturing them
  // dominates the cost of reading a damaged body.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return decodeAt(type, bytes, path, { base, problems, cutAtEnd, depth: 0 });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function decodeAt(type: protobuf.Type, bytes: Uint8Array, path: string, ctx: Ctx): LenientResult {
  // A message running into the end of a cut-off body cannot decode whole: go straight to salvage.
  if (!ctx.cutAtEnd) {
    try {
      return { message: type.decode(bytes) as Msg, complete: true };
    } catch {
      // fall through to field-by-field salvage
    }
  }
  const out = type.create() as Msg;
  if (ctx.depth >= MAX_DEPTH) {
    ctx.problems.push(problem(ctx, 0, `${path}: nested deeper than ${MAX_DEPTH} levels; not decoded`));
    return { message: out, complete: false };
  }
  const reader = protobuf.Reader.create(bytes);
  const counts = new Map<string, number>();
  let complete = true;
  while (reader.pos < reader.len) {
    const tagPos = reader.pos;
    let tag: number;
    try {
      tag = reader.uint32();
    } catch (err) {
      ctx.problems.push(problem(ctx, tagPos, `${path}: field tag at offset ${n(ctx.base + tagPos)} is cut off (${describe(err)})`));
      return { message: out, complete: false };
    }
    const fieldNo = tag >>> 3;
    const wireType = tag & 7;
    const field = type.fieldsById[fieldNo];
    const skipped = SKIPPED_FIELDS[type.name]?.[fieldNo];
    const label = field ? `${path}.${field.name}` : skipped ? `${path}.${skipped}` : `${path} field ${fieldNo}`;
    const index = counts.get(label) ?? 0;
    const where = field?.repeated ? `${label}[${index}]` : label;
    if (fieldNo === 0 || wireType > 5) {
      ctx.problems.push(problem(ctx, tagPos, `${path}: invalid field tag ${tag} (field ${fieldNo}, wire type ${wireType}) at offset ${n(ctx.base + tagPos)}`));
      return { message: out, complete: false };
    }
    let dataStart = reader.pos;
    let dataEnd: number;
    try {
      if (wireType === 2) {
        const len = reader.uint32();
        dataStart = reader.pos;
        dataEnd = dataStart + len;
        if (dataEnd > reader.len) {
          const present = reader.len - dataStart;
          const what = ctx.cutAtEnd ? 'the file ends' : 'its enclosing message ends';
          ctx.problems.push(
            problem(ctx, tagPos, `${where} at offset ${n(ctx.base + tagPos)} declares ${n(len)} bytes but ${what} after ${n(present)}; decoding stopped there`),
          );
          const sub = field?.resolvedType;
          if (sub instanceof protobuf.Type && present > 0) {
            const partial = decodeAt(sub, bytes.subarray(dataStart), where, { ...ctx, base: ctx.base + dataStart, depth: ctx.depth + 1 });
            assign(out, field!, partial.message);
          }
          return { message: out, complete: false };
        }
        reader.pos = dataEnd;
      } else {
        reader.skipType(wireType);
        dataEnd = reader.pos;
      }
    } catch (err) {
      ctx.problems.push(problem(ctx, tagPos, `${where} at offset ${n(ctx.base + tagPos)} is cut off (${describe(err)})`));
      return { message: out, complete: false };
    }
    counts.set(label, index + 1);
    if (!field) continue; // a field our schema does not need: skipped on purpose
    try {
      const part = type.decode(bytes.subarray(tagPos, dataEnd)) as Msg;
      merge(out, part);
    } catch (err) {
      const sub = field.resolvedType;
      if (wireType === 2 && sub instanceof protobuf.Type) {
        const partial = decodeAt(sub, bytes.subarray(dataStart, dataEnd), where, { ...ctx, base: ctx.base + dataStart, cutAtEnd: false, depth: ctx.depth + 1 });
        assign(out, field, partial.message);
        if (!partial.complete) complete = false;
      } else {
        ctx.problems.push(problem(ctx, tagPos, `${where} at offset ${n(ctx.base + tagPos)} cannot be decoded (${describe(err)})`));
        complete = false;
      }
      // Keep going: fields after a damaged one are usually intact.
    }
  }
  // Every field decoded on its own although the whole did not: report it rather than hide it.
  // (A cut-off body that happens to end on a field boundary is reported by the container check.)
  if (complete && !ctx.cutAtEnd) ctx.problems.push(problem(ctx, 0, `${path} did not decode as a whole but every field did on its own`));
  return { message: out, complete: false };
}

function assign(out: Msg, field: protobuf.Field, value: Msg): void {
  if (field.repeated) {
    const arr = (Object.prototype.hasOwnProperty.call(out, field.name) ? out[field.name] : []) as unknown[];
    arr.push(value);
    out[field.name] = arr;
  } else {
    out[field.name] = value;
  }
}

function merge(out: Msg, part: Msg): void {
  for (const key of Object.keys(part)) {
    const v = part[key];
    if (Array.isArray(v)) {
      if (v.length === 0) continue;
      const prev = Object.prototype.hasOwnProperty.call(out, key) ? (out[key] as unknown[]) : [];
      out[key] = prev.concat(v);
    } else {
      out[key] = v;
    }
  }
}

function problem(ctx: Ctx, pos: number, message: string): HefProblem {
  return { code: 'hef/proto', severity: 'error', area: 'proto', offset: ctx.base + pos, message };
}

/** Whether the message has the field set (proto3 scalars: present only when non-default). */
export function has(m: unknown, field: string): boolean {
  return !!m && typeof m === 'object' && Object.prototype.hasOwnProperty.call(m, field);
}
