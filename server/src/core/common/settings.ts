// Every `hailo.*` setting in one place: its key, scope, default and how a raw (untrusted) value is
// read. The language server reads them only through lsp/settings.ts (cached per document), the
// CLI builds them from its flags, the client reads its own (client-only) ones with the same
// readers. package.json's `contributes.configuration` is held to SETTINGS by a test
// (test/unit/common/settings.test.ts), so adding a setting means: package.json + one entry here.
import { DEFAULT_HW_ARCH, HW_ARCHES } from './arch';

export const INLINE_CHECKS = ['off', 'auto', 'always'] as const;
export type InlineChecks = (typeof INLINE_CHECKS)[number];
export const GPUS = ['auto', 'all', 'none'] as const;
export const SPEECH_TASKS = ['transcribe', 'translate'] as const;
export type Gpus = (typeof GPUS)[number];

export interface HailoSettings {
  /** `hailo.hwArch`: the target architecture, lower-cased. Unknown names disable arch checks. */
  hwArch: string;
  model: {
    /** `hailo.model.har`: the parsed model a script refers to ('' = look beside the script). */
    har: string;
    /** `hailo.model.onnx`: the ONNX the HAR came from ('' = look beside the HAR). */
    onnx: string;
    /** `hailo.model.calibrationSet`: the script's calibration set ('' = look beside the script). */
    calibrationSet: string;
    /** `hailo.model.labels`: the app's labels file ('' = one beside the HEF or script). */
    labels: string;
  };
  hef: {
    /** `hailo.hef.inlineChecks` */
    inlineChecks: InlineChecks;
  };
  mtmd: {
    /** `hailo.mtmd.textModelWidth`: the text model's n_embd_inp, or null. */
    textModelWidth: number | null;
  };
  dfc: {
    /** `hailo.dfc.dockerPath` (machine-scoped; read by the client only). */
    dockerPath: string;
    /** `hailo.dfc.image`: DFC image ('' = the first local Hailo image, else the suite's default name). */
    image: string;
    /** `hailo.dfc.memoryLimit`: `docker run --memory` ('' = docker's default). */
    memoryLimit: string;
    /** `hailo.dfc.gpus` */
    gpus: Gpus;
    /** `hailo.dfc.extraRunArgs` (machine-scoped: they change what runs). */
    extraRunArgs: string[];
    /** `hailo.dfc.dockerContext` ('' = docker's current context). */
    dockerContext: string;
  };
  compile: {
    /** `hailo.compile.hailoConfig`: the config to embed ('' = the one beside the model). */
    hailoConfig: string;
    /** `hailo.compile.outputFolder` ('' = the model's folder). */
    outputFolder: string;
  };
  hailort: {
    /** `hailo.hailort.path`: HailoRT install root ('' = search the usual places; machine-scoped). */
    path: string;
  };
  onnxruntime: {
    /** `hailo.onnxruntime.path`: onnxruntime-node for the float reference ('' = the extension's copy; machine-scoped). */
    path: string;
  };
  device: {
    /** `hailo.device.groupId`: HailoRT's VDevice group id. */
    groupId: string;
  };
  transcribe: {
    /** `hailo.transcribe.language`: ISO-639-1 code ('' = the model detects it). */
    language: string;
    /** `hailo.transcribe.task`: transcribe, or translate into English. */
    task: (typeof SPEECH_TASKS)[number];
  };
}

type Scope = 'application' | 'machine' | 'window' | 'resource' | 'machine-overridable' | 'language-overridable';

export interface SettingSpec {
  /** Key below `hailo.`, dotted (`hef.inlineChecks`). */
  key: string;
  scope: Scope;
  default: unknown;
  /** The enum package.json must declare, when the setting is one. */
  enum?: readonly string[];
  /** Who reads it: the language server (and CLI) or only the extension host. */
  readBy: 'server' | 'client';
  /** It names a file or folder to read or write: a folder-settable one is restricted (package.json). */
  path?: true;
}

/** The settings package.json declares, one entry per `hailo.*` property. */
export const SETTINGS: readonly SettingSpec[] = [
  { key: 'hwArch', scope: 'resource', default: DEFAULT_HW_ARCH, enum: HW_ARCHES, readBy: 'server' },
  { key: 'model.har', scope: 'resource', default: '', readBy: 'server', path: true },
  { key: 'model.onnx', scope: 'resource', default: '', readBy: 'server', path: true },
  { key: 'model.calibrationSet', scope: 'resource', default: '', readBy: 'server', path: true },
  { key: 'model.labels', scope: 'resource', default: '', readBy: 'server', path: true },
  { key: 'dfc.dockerPath', scope: 'machine', default: 'docker', readBy: 'client', path: true },
  { key: 'dfc.image', scope: 'machine-overridable', default: '', readBy: 'client' },
  { key: 'dfc.memoryLimit', scope: 'machine-overridable', default: '', readBy: 'client' },
  { key: 'dfc.gpus', scope: 'machine-overridable', default: 'auto', enum: GPUS, readBy: 'client' },
  { key: 'dfc.extraRunArgs', scope: 'machine', default: [], readBy: 'client' },
  { key: 'dfc.dockerContext', scope: 'machine-overridable', default: '', readBy: 'client' },
  { key: 'compile.hailoConfig', scope: 'resource', default: '', readBy: 'client', path: true },
  { key: 'compile.outputFolder', scope: 'resource', default: '', readBy: 'client', path: true },
  { key: 'hef.inlineChecks', scope: 'resource', default: 'auto', enum: INLINE_CHECKS, readBy: 'server' },
  { key: 'mtmd.textModelWidth', scope: 'resource', default: null, readBy: 'server' },
  { key: 'hailort.path', scope: 'machine', default: '', readBy: 'client', path: true },
  { key: 'device.groupId', scope: 'resource', default: 'UNIQUE', readBy: 'client' },
  { key: 'onnxruntime.path', scope: 'machine', default: '', readBy: 'client', path: true },
  { key: 'transcribe.language', scope: 'resource', default: '', readBy: 'client' },
  { key: 'transcribe.task', scope: 'resource', default: 'transcribe', enum: SPEECH_TASKS, readBy: 'client' },
];

/**
 * A reader over a raw `hailo` section: VS Code answers nested objects (`{hef: {inlineChecks}}`),
 * some clients send flat dotted keys (`{"hef.inlineChecks": …}`); both are accepted.
 */
export type SettingLookup = (key: string) => unknown;

export function sectionLookup(raw: unknown): SettingLookup {
  return (key) => {
    if (!raw || typeof raw !== 'object') return undefined;
    if (own(raw, key)) return (raw as Record<string, unknown>)[key];
    let cur: unknown = raw;
    for (const part of key.split('.')) {
      if (!cur || typeof cur !== 'object' || !own(cur, part)) return undefined;
      cur = (cur as Record<string, unknown>)[part];
    }
    return cur;
  };
}

const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const oneOf = <T extends string>(values: readonly T[], v: unknown): T | undefined =>
  typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined;
/** An array of strings (non-strings dropped, not trimmed: each is one argv entry). */
const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const positiveInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

/** Reads every setting from a raw section (or a lookup), defaults for what is absent or invalid. */
export function resolveSettings(lookup: SettingLookup): HailoSettings;
export function resolveSettings(raw: unknown): HailoSettings;
export function resolveSettings(raw: unknown): HailoSettings {
  const get = typeof raw === 'function' ? (raw as SettingLookup) : sectionLookup(raw);
  return {
    hwArch: text(get('hwArch'))?.toLowerCase() ?? DEFAULT_HW_ARCH,
    // `…Path` spellings were accepted by an earlier reader; keep them for clients configured so
    model: {
      har: text(get('model.har')) ?? text(get('model.harPath')) ?? '',
      onnx: text(get('model.onnx')) ?? text(get('model.onnxPath')) ?? '',
      calibrationSet: text(get('model.calibrationSet')) ?? '',
      labels: text(get('model.labels')) ?? '',
    },
    hef: { inlineChecks: oneOf(INLINE_CHECKS, get('hef.inlineChecks')) ?? 'auto' },
    mtmd: { textModelWidth: positiveInt(get('mtmd.textModelWidth')) ?? null },
    dfc: {
      dockerPath: text(get('dfc.dockerPath')) ?? 'docker',
      image: text(get('dfc.image')) ?? '',
      memoryLimit: text(get('dfc.memoryLimit')) ?? '',
      gpus: oneOf(GPUS, get('dfc.gpus')) ?? 'auto',
      extraRunArgs: stringList(get('dfc.extraRunArgs')),
      dockerContext: text(get('dfc.dockerContext')) ?? '',
    },
    compile: { hailoConfig: text(get('compile.hailoConfig')) ?? '', outputFolder: text(get('compile.outputFolder')) ?? '' },
    hailort: { path: text(get('hailort.path')) ?? '' },
    onnxruntime: { path: text(get('onnxruntime.path')) ?? '' },
    device: { groupId: text(get('device.groupId')) ?? 'UNIQUE' },
    transcribe: { language: text(get('transcribe.language'))?.toLowerCase() ?? '', task: oneOf(SPEECH_TASKS, get('transcribe.task')) ?? 'transcribe' },
  };
}

export const DEFAULT_SETTINGS: HailoSettings = resolveSettings(undefined);
