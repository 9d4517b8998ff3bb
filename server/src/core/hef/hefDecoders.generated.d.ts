// Types of hefDecoders.generated.js (scripts/gen-hef-decoders.mjs writes it).
import type { INamespace, Reader, util } from 'protobufjs';

/** The hefview package as protobufjs JSON (Root.fromJSON). */
export declare const HEF_SCHEMA_JSON: INamespace;
/** Per message type ('hefview.Hef' …): the constructor protobufjs generates for it. */
export declare const HEF_CONSTRUCTORS: Record<string, new (properties?: Record<string, unknown>) => object>;
/** Per message type: its decoder, given protobufjs' decoder scope (the Reader class, the fields' resolved types, util). */
export declare const HEF_DECODERS: Record<string, (reader: typeof Reader, types: unknown[], utils: typeof util) => (...args: unknown[]) => unknown>;
