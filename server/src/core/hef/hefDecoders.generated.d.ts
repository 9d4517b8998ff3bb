// Types of hefDecoders.generated.js (scripts/gen-hef-decoders.mjs writes it).
import type { Reader, util } from 'protobufjs';

export interface GeneratedMessage {
  /** The constructor protobufjs generates for the type (Type.generateConstructor). */
  ctor: new () => object;
  /** The defaults protobufjs puts on the type's prototype, per field. */
  defaults: (utils: typeof util) => Record<string, unknown>;
  /** Per field (in the type's field order): the full name of its message type, else null. */
  types: (string | null)[];
  /** The type's decoder (protobufjs' decoder()), given the scope protobufjs gives it. */
  decoder: (reader: typeof Reader, types: unknown[], utils: typeof util) => (...args: unknown[]) => unknown;
}

/** Per message type ('hefview.Hef' …). */
export declare const HEF_MESSAGES: Record<string, GeneratedMessage>;
