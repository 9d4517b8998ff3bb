// `hailo-tools recipe [--json] [--hw-arch ARCH] [--har FILE] [--write DIR] MODEL.onnx` — the compile
// recipe the model zoo would write for a detector: parser end nodes, .alls, NMS config, labels
// (core/recipe). Exit: 0 a recipe, 1 no recognised detector head (one sentence, no files),
// 2 usage error, unreadable input, or files that would be replaced.
import { resolve } from 'node:path';
import { FileRoots } from '../core/common/confined';
import { HW_ARCHES, isHwArch } from '../core/common/arch';
import { recipeForOnnx, recipeJson, writeRecipe } from '../core/recipe/fromFiles';
import type { Recipe } from '../core/recipe/recipe';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';
import { pushAll } from '../core/common/arrays';
import { reportLines } from '../core/common/escape';

const OPTIONS = {
  json: {
    type: 'boolean',
    help: 'print one JSON document: family, startNodes, endNodes, classes, regressionLength, strides, imageDims, metaArch, sources, files…',
  },
  'hw-arch': {
    type: 'string',
    default: 'hailo8',
    arg: 'ARCH',
    help: `the architecture the .alls is checked for (default hailo8); one of ${HW_ARCHES.join(', ')}`,
  },
  har: { type: 'string', arg: 'FILE', help: 'a HAR parsed from this model (default: MODEL.har beside it): the NMS config is written with its layer names' },
  write: { type: 'string', arg: 'DIR', help: 'write the files into DIR (an existing file is never replaced: then nothing is written)' },
} as const;

const USAGE = `usage: hailo-tools recipe [--json] [--hw-arch ARCH] [--har FILE] [--write DIR] MODEL.onnx

Recognise a detector's head in an ONNX model (YOLOv8, YOLO11, YOLOv5u, YOLOv10, YOLO26, YOLOv5,
YOLOX) and print the compile recipe the model zoo would write for it: the parser's start and end
nodes, the .alls (normalization, output activations, nms_postprocess), the NMS config (with a HAR
parsed from the model: its layer names) and a labels file from Ultralytics' metadata. Every value
says where it came from; the recipe passes hailo-tools' .alls and NMS checks before it is shown.

options:
${helpTable(optionRows(OPTIONS))}

exit: 0 a recipe, 1 no recognised detector head, 2 usage error or unreadable input
`;

interface Options {
  json: boolean;
  hwArch: string;
  har?: string;
  write?: string;
  model?: string;
}

/** The options, or the exit code when the arguments were help or a usage error (printed). */
function parseOptions(args: string[], io: CliIO): Options | number {
  const parsed = parseCommand('recipe', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const v = parsed.values;
  const hwArch = v['hw-arch'].trim().toLowerCase();
  if (!isHwArch(hwArch)) return usageError(io, 'recipe', USAGE, `unknown architecture '${v['hw-arch']}' (expected one of ${HW_ARCHES.join(', ')})`);
  const [model, extra] = parsed.positionals;
  if (extra !== undefined) return usageError(io, 'recipe', USAGE, `one MODEL.onnx only (got ${model} and ${extra})`);
  if (model === undefined) return usageError(io, 'recipe', USAGE, 'no MODEL.onnx given');
  return {
    json: v.json,
    hwArch,
    model,
    ...(v.har !== undefined ? { har: resolve(v.har) } : {}),
    ...(v.write !== undefined ? { write: resolve(v.write) } : {}),
  };
}

function human(recipe: Recipe, written: string[] | undefined, model?: string, hwArch?: string): string {
  const lines = [
    `family: ${recipe.family} (${recipe.sources.family})`,
    `meta_arch: ${recipe.metaArch ?? 'none (NMS-free)'}`,
    `start nodes: ${recipe.startNodes.join(', ')}`,
    `end nodes: ${recipe.endNodes.join(', ')}`,
    `classes: ${recipe.classes} (${recipe.sources.classes})`,
    ...(recipe.regressionLength !== null ? [`regression_length: ${recipe.regressionLength} (${recipe.sources.regressionLength})`] : []),
    `strides: ${recipe.strides.join(', ')} (${recipe.sources.strides})`,
    `image_dims: ${recipe.imageDims.join(', ')} (${recipe.sources.imageDims})`,
    ...(recipe.labels ? [`labels: ${recipe.labels.length} names (${recipe.sources.labels})`] : []),
    ...recipe.notes.map((n) => `note: ${n}`),
  ];
  for (const f of recipe.files) lines.push('', `--- ${f.name}`, f.text.trimEnd());
  if (written)
    pushAll(
      lines,
      [''],
      written.map((w) => `wrote ${w}`),
    );
  // The next step, as hailo-tools compile takes it (cli/compile.ts: --alls, --start-nodes, --end-nodes).
  if (model && !recipe.endNodes.some((n) => n.includes(','))) {
    const alls = written?.find((w) => w.endsWith('.alls')) ?? recipe.files[0].name;
    lines.push(
      '',
      `next: hailo-tools compile${hwArch ? ` --hw-arch ${hwArch}` : ''} --alls ${alls} --start-nodes ${recipe.startNodes.join(',')} --end-nodes ${recipe.endNodes.join(',')} ${model}`,
    );
  }
  return reportLines(lines);
}

export async function runRecipe(args: string[], io: CliIO): Promise<number> {
  const parsed = parseOptions(args, io);
  if (typeof parsed === 'number') return parsed;
  if (parsed.write) {
    let dir = false;
    try {
      dir = FileRoots.named(parsed.write).isDirectory(parsed.write);
    } catch {
      dir = false;
    }
    if (!dir) {
      io.err(`hailo-tools recipe: --write ${parsed.write}: not a folder (create it first)\n`);
      return EXIT_USAGE;
    }
  }
  const r = await recipeForOnnx(parsed.model!, { hwArch: parsed.hwArch, ...(parsed.har ? { harPath: parsed.har } : {}) });
  if (!r.ok) {
    io.err(`hailo-tools recipe: ${r.reason}\n`);
    return r.usage ? EXIT_USAGE : EXIT_FINDINGS;
  }
  let written: string[] | undefined;
  if (parsed.write) {
    const w = writeRecipe(parsed.write, r.recipe.files[0].name.replace(/\.alls$/, ''), r.recipe);
    if ('error' in w) {
      io.err(`hailo-tools recipe: ${w.error}\n`);
      return EXIT_USAGE;
    }
    written = w.written;
  }
  if (parsed.json) io.out(JSON.stringify({ ...recipeJson(r.recipe), ...(r.harPath ? { har: r.harPath } : {}), ...(written ? { written } : {}) }) + '\n');
  else io.out(human(r.recipe, written, parsed.model, parsed.hwArch));
  return EXIT_OK;
}
