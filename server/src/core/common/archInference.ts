// Which architecture a `.alls` script targets, decided before the `hailo.hwArch` setting (or
// `--hw-arch`) is used — pure: the caller reads the files (server/src/core/har/scriptArch.ts) and hands
// over what they say. Order, strongest evidence first:
//   1. a compiled HEF beside the script (its protobuf header's `hw_arch`: what the DFC built for),
//   2. the parsed model (`.har`) the script is checked against (`hw_arch` of its metadata.json),
//   3. a folder on the script's path named after an architecture — the model zoo keeps scripts in
//      `cfg/alls/<arch>/{base,performance}/` and looks up hailo10h scripts in `hailo15h/`
//      (hailo_model_zoo core/main_utils.py `resolve_alls_path`, v5.0.0 on),
//   4. the setting.
// Where the evidence names more than one architecture (HEF hw_arch 103 is hailo10h and hailo15h;
// the zoo's hailo15h folder serves both), the setting picks among them when it is one of them.
import { archesOfHefArch, isHwArch, type HwArch } from './arch';
import { mdText, oneLine } from './escape';

/** What the files beside a script say; each entry already read (or failed to be). */
export interface ArchFacts {
  /** Absolute path of the script (only its folder names are looked at; nothing is read). */
  scriptPath: string;
  /** The `hailo.hwArch` setting / `--hw-arch` (a name the tool does not know disables the arch checks). */
  setting: string;
  /** The HEF beside the script and its header's `hw_arch` id; `error` when it could not be read. */
  hef?: { name: string; hwArchId?: number; error?: string };
  /** The HAR the script is checked against and its metadata `hw_arch` (any string the HAR holds). */
  har?: { name: string; hwArch?: string; beside: boolean };
}

export type ArchSource = 'hef' | 'har' | 'folder' | 'setting';

export interface ArchInference {
  /** An HwArch, or the setting's unknown name when nothing else says. */
  arch: string;
  source: ArchSource;
  /** Short phrase for diagnostics: "from qwen.hef beside this script". */
  from: string;
  /** One or two sentences for the hover: why this architecture, and what else was seen. */
  why: string;
}

/** The folders a model-zoo script path may sit in, per folder name, with the architectures each serves. */
const ZOO_FOLDER: Record<string, readonly HwArch[]> = {
  hailo8: ['hailo8'],
  hailo8r: ['hailo8r'],
  hailo8l: ['hailo8l'],
  hailo15h: ['hailo15h', 'hailo10h'], // the zoo maps hailo10h to this folder
  hailo15m: ['hailo15m'],
  hailo15l: ['hailo15l'],
  hailo10h: ['hailo10h'],
};

/** The nearest folder of `scriptPath` named after an architecture (`…/hailo15l/base/x.alls` → hailo15l). */
export function archFolderOf(scriptPath: string): { folder: string; arches: readonly HwArch[] } | undefined {
  const parts = scriptPath.split(/[\\/]+/).filter(Boolean);
  parts.pop(); // the file itself
  for (let i = parts.length - 1; i >= 0; i--) {
    const arches = ZOO_FOLDER[parts[i].toLowerCase()];
    if (arches) return { folder: parts[i], arches };
  }
  return undefined;
}

/** Among `candidates`, the one to take: `prefer` when it is one of them, else the first. */
function pick(candidates: readonly HwArch[], prefer: string | undefined): HwArch {
  return candidates.find((c) => c === prefer) ?? candidates[0];
}

const list = (xs: readonly string[]) => (xs.length <= 2 ? xs.join(' and ') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

export function inferArch(facts: ArchFacts): ArchInference {
  // Names come from a folder someone else may have filled: keep each on its line.
  const f: ArchFacts = {
    ...facts,
    hef: facts.hef && { ...facts.hef, name: oneLine(facts.hef.name) },
    har: facts.har && { ...facts.har, name: oneLine(facts.har.name), hwArch: facts.har.hwArch === undefined ? undefined : oneLine(facts.har.hwArch) },
  };
  const harArch = f.har?.hwArch !== undefined && isHwArch(f.har.hwArch) ? f.har.hwArch : undefined;
  const harWhere = f.har ? `${f.har.name}${f.har.beside ? ' beside this script' : ' (the model this script is checked against)'}` : '';
  const notes: string[] = [];
  if (f.har?.hwArch !== undefined && !harArch) notes.push(`${f.har.name} says hw_arch '${f.har.hwArch}', which this tool does not know.`);

  // 1. the HEF
  const hefArches = f.hef?.hwArchId !== undefined ? archesOfHefArch(f.hef.hwArchId) : [];
  if (f.hef?.error) notes.push(`${f.hef.name} beside it could not be read (${f.hef.error}).`);
  else if (f.hef && f.hef.hwArchId !== undefined && hefArches.length === 0)
    notes.push(`${f.hef.name} beside it has hw_arch ${f.hef.hwArchId}, which names no architecture the DFC compiles for.`);
  if (f.hef && hefArches.length) {
    const arch = pick(hefArches, harArch ?? f.setting);
    const from = `from ${f.hef.name} beside this script`;
    let why = `${f.hef.name} beside this script was compiled for it (HEF hw_arch ${f.hef.hwArchId}`;
    if (hefArches.length > 1)
      why += `, which is ${list(hefArches)}; ${harArch && hefArches.includes(harArch) ? `${f.har!.name} says ${harArch}` : (hefArches as readonly string[]).includes(f.setting) ? `the setting picks ${f.setting}` : `${arch} taken`}`;
    why += ').';
    if (harArch && !hefArches.includes(harArch)) notes.push(`${harWhere} says ${harArch}; the compiled HEF wins.`);
    return { arch, source: 'hef', from, why: [why, ...notes].join(' ') };
  }

  // 2. the HAR
  if (f.har && harArch) {
    return {
      arch: harArch,
      source: 'har',
      from: `from ${f.har.name}${f.har.beside ? ' beside this script' : ''}`,
      why: [`${harWhere} was parsed for it (hw_arch in its metadata.json).`, ...notes].join(' '),
    };
  }

  // 3. the folder
  const folder = archFolderOf(f.scriptPath);
  if (folder) {
    const arch = pick(folder.arches, f.setting);
    const serves =
      folder.arches.length > 1
        ? ` (the model zoo keeps ${list(folder.arches)} scripts there${arch === f.setting && arch !== folder.arches[0] ? '; the setting picks ' + arch : ''})`
        : '';
    return {
      arch,
      source: 'folder',
      from: `from the folder ${folder.folder}/`,
      why: [`The script is in a folder named ${folder.folder}/${serves}, the model zoo's layout for scripts of that architecture.`, ...notes].join(' '),
    };
  }

  // 4. the setting
  return {
    arch: f.setting,
    source: 'setting',
    from: 'setting `hailo.hwArch`',
    why: [
      'The setting hailo.hwArch (CLI: --hw-arch): no HEF or HAR beside the script and no folder named after an architecture says otherwise.',
      ...notes,
    ].join(' '),
  };
}

const SOURCE_LABEL: Record<ArchSource, string> = { hef: 'from the HEF beside it', har: 'from its HAR', folder: 'from its folder', setting: 'the setting' };

/** The hover section on a script's first line (`why` holds file names: escaped as markdown text). */
export function archHoverMarkdown(inf: ArchInference): string {
  return [
    `**Target architecture: ${inf.arch}** — ${SOURCE_LABEL[inf.source]}`,
    '',
    mdText(inf.why),
    '',
    'Order: a HEF beside the script, then its HAR, then a folder named after an architecture (the model zoo’s layout), then `hailo.hwArch`.',
  ].join('\n');
}
