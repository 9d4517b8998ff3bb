// Which stage a run failed in, from all the evidence a log carries, whatever part of it was quoted (issue 30;
// docs/research/dfc-unseen-misses.md, class C). Fresh logs are excerpts: the failure and a few frames, a command,
// a file name — rarely the stage markers. Each kind of evidence is a clue with its stage and the reason it names,
// and one function weighs them, strongest first:
//   1. the stage running when the error came (a marker or a line only that stage prints: markers.ts);
//   2. what the error itself shows — its catalogue entry's stage, its traceback's DFC frames or the ClientRunner
//      call in them, its class's framework or DFC module (errors.ts);
//   3. the last DFC module a line names, or the Python API call the log shows being run outside a traceback
//      (`runner.optimize(calib)`, `hef = runner.compile()`) — only when the calls since the last progress name one
//      stage (a script pasted whole names them all);
//   4. what the command runs (`hailo parser|optimize|compiler`, `hailomz parse|optimize|compile`), narrowed by what
//      the log shows already done: a stage that finished, a HAR of a later state loaded or written
//      (`hailomz compile --har x_optimized.har` starts at compile);
//   5. the stage the author names where they quote the error (`Parsing fails:`).
// With none of these the stage is `unknown` — never a default.
import { COMMANDS } from '../alls/schema';
import { DFC_MESSAGES } from '../common/dfcMessages';
import { STAGES, type StageClue, type StageClueKind, type StageName } from './types';

export type { StageClue, StageClueKind };

/** The weighing's order after the running stage (the header's list): the first kind present decides. */
const WEIGHT: readonly StageClueKind[] = ['catalogue', 'error', 'ran', 'call', 'command', 'said'];

/**
 * The stage of an error from the clues a log gives; null when there is none. The error's own evidence (its catalogue
 * entry's stage, then its frames, call, class or module) and the running stage are weighed against each other: a stage
 * starts only after the ones before it ended, so the error's own evidence of a later stage than the one running wins
 * (that stage's end was not quoted), and the running stage wins over the error's evidence of an earlier one (a later
 * stage re-used an earlier stage's code: a parser class raised while quantizing, dfc-corpus unseen4/19). Without a
 * running stage, the strongest kind present decides, its latest clue.
 */
export function weighStage(clues: readonly (StageClue | null | undefined)[]): StageClue | null {
  const running = clues.find((c): c is StageClue => !!c && c.kind === 'running') ?? null;
  let own: StageClue | null = null;
  for (const kind of WEIGHT) {
    const of = clues.filter((c): c is StageClue => !!c && c.kind === kind);
    if (of.length) {
      own = of[of.length - 1];
      break;
    }
  }
  if (!running) return own;
  if (own && (own.kind === 'catalogue' || own.kind === 'error') && STAGES.indexOf(own.stage) > STAGES.indexOf(running.stage)) return own;
  return running;
}

// ---- a traceback's frames, a class, a module ----------------------------------------------------------------
/**
 * The stage a traceback frame belongs to, from the DFC module it runs in (the paths public tracebacks show:
 * test/fixtures/dfc/SOURCES.md, the corpus), the ClientRunner method, or the model zoo's step; null for frames of no
 * stage (the CLI's `main`, decorators, the user's script).
 * - The model script is loaded for the optimize stage (`hailo optimize --model-script`, the catalogue's
 *   `dfc/model-script-syntax`): `load_model_script`, its parser `sdk_backend/script_parser/` (dfc-corpus tune2/17).
 * - hailomz's steps (hailo_model_zoo main_driver.py: `parse`/`optimize`/`compile` per command, `_ensure_parsed`,
 *   `_ensure_optimized`, `_ensure_compiled`; core/main_utils.py `parse_model`, `optimize_model`,
 *   `optimize_full_precision_model`, `prepare_calibration_data`, `compile_model` — github.com/hailo-ai/hailo_model_zoo).
 * - A path an author elided (`File ".../onnx_translator/onnx_graph.py"`, dfc-corpus unseen10/03) keeps the DFC's inner
 *   packages, which name their stage alone: the parser's `onnx_translator/`/`tf_translator/`, the optimizer's
 *   `acceleras/`, and the ClientRunner's own `client_runner.py`, whose method is the stage.
 */
export function stageOfFrame(path: string, fn: string): StageName | null {
  const name = fn.slice(fn.lastIndexOf('.') + 1);
  if (/hailo_model_optimization[\\/]/.test(path)) return 'optimize';
  if (/[\\/](?:sdk_backend[\\/]parser|model_translator)[\\/]|[\\/]parser_cli\.py$/.test(path)) return 'parse';
  if (/[\\/](?:allocator|hailo_tools[\\/]build)[\\/]|[\\/]compiler_cli\.py$/.test(path)) return 'compile';
  if (/[\\/]script_parser[\\/]/.test(path)) return 'optimize';
  if (/[\\/](?:onnx|tf|tflite|pytorch)_translator[\\/]/.test(path)) return 'parse';
  if (/[\\/]acceleras[\\/]/.test(path)) return 'optimize';
  if (/hailo_sdk_client[\\/]|[\\/]client_runner\.py$/.test(path)) {
    if (/^(?:translate_(?:onnx|tf)_model|_?parse_(?:onnx_)?model_to_hn)$/.test(name)) return 'parse';
    if (/^(?:optimize|optimize_full_precision|full_quantization|_full_acceleras_run|load_model_script(?:_from_file)?)$/.test(name)) return 'optimize';
    if (/^_?compile$/.test(name)) return 'compile';
  }
  if (/hailo_model_zoo[\\/]/.test(path)) {
    if (/^(?:parse|parse_model|_ensure_parsed)$/.test(name)) return 'parse';
    if (/^(?:optimize|optimize_model|optimize_full_precision_model|prepare_calibration_data|_ensure_optimized)$/.test(name)) return 'optimize';
    if (/^(?:compile|compile_model|_ensure_compiled)$/.test(name)) return 'compile';
  }
  return null;
}

/**
 * The stage an exception class belongs to by the framework that defines it, whatever module path the
 * log kept: the optimizer's Acceleras framework (`hailo_model_optimization.acceleras.utils.acceleras_exceptions`,
 * AccelerasValueError …, dfc-corpus unseen3/21) is optimize; the allocator's exceptions are compile.
 */
export function stageOfClass(cls: string | null | undefined): StageName | null {
  if (!cls) return null;
  if (/^Acceleras[A-Z]/.test(cls)) return 'optimize';
  // The optimizer's configuration (`ModelOptimizationConfig`, the model script's settings pydantic validates: its
  // `calibration -> calibset_size`, dfc-corpus unseen22/37) is the optimize stage's.
  if (/^ModelOptimization[A-Z]\w*$/.test(cls)) return 'optimize';
  if (/^(?:BackendAllocator|Allocator)\w*(?:Exception|Error)$/.test(cls)) return 'compile';
  return null;
}

/**
 * A DFC module a line names, as a dotted path (`'module': 'hailo_model_optimization.acceleras.atomic_ops…'`
 * in a Keras object config) or a file path (`…/hailo_sdk_client/…/parser/…`): the stage whose code ran.
 */
const DFC_MODULE_MENTION = /\b(hailo_(?:model_optimization|sdk_client|sdk_common)(?:[./\\]\w+){0,12})/;

export function stageOfMention(text: string): StageName | null {
  if (!text.includes('hailo_')) return null;
  const m = DFC_MODULE_MENTION.exec(text);
  return m ? stageOfFrame(`/${m[1].replace(/[.\\]/g, '/')}/`, '') : null;
}

/**
 * The stage of the configuration class a validation error is for (pydantic's `2 validation errors for
 * ModelOptimizationConfig`, its message's first line): the class's stage (stageOfClass), whatever library validated it.
 */
const VALIDATED_MODEL = /\bvalidation errors? for ([A-Z]\w{1,80})/;

export function stageOfValidated(message: string | null | undefined): StageName | null {
  const m = message?.includes('validation error') ? VALIDATED_MODEL.exec(message) : null;
  return m ? stageOfClass(m[1]) : null;
}

/**
 * A frame an author names in prose by its file and function (`fuser.py _handle_neg_feature_shuffle`, `onnx_graph.py
 * _is_spatial_flatten…`, dfc-corpus unseen22/34) rather than by a traceback's path: the DFC's own module files, each
 * at the path public tracebacks show it (the parser's translators and fuser under `hailo_sdk_client/model_translator/`,
 * the corpus's unseen10/03 and test/fixtures/dfc/SOURCES.md), read by stageOfFrame. A file name alone, without a
 * function beside it, is anyone's.
 */
const DFC_FILES: Readonly<Record<string, string>> = {
  'onnx_graph.py': 'hailo_sdk_client/model_translator/onnx_translator/onnx_graph.py',
  'onnx_translator.py': 'hailo_sdk_client/model_translator/onnx_translator/onnx_translator.py',
  'tf_graph.py': 'hailo_sdk_client/model_translator/tf_translator/tf_graph.py',
  'translator.py': 'hailo_sdk_client/model_translator/translator.py',
  'fuser.py': 'hailo_sdk_client/model_translator/fuser/fuser.py',
  'parser_cli.py': 'hailo_sdk_client/tools/parser_cli.py',
  'compiler_cli.py': 'hailo_sdk_client/tools/compiler_cli.py',
};
const FRAME_NAMED = /(?<![\w/.])([a-z]\w{1,40}\.py)`?(?: |::?|\.|, in |`? in `?| line \d{1,6}, in )`?([A-Za-z]?\w{0,60}_\w{1,60})\b/g;

/**
 * The DFC's own functions an author may name alone, without their file (`DFC 5.4.0 enters \`_handle_neg_feature_shuffle\` and
 * raises \`TypeError: …\``, dfc-corpus unseen27/04), each at the path a public traceback or an author's `file.py function`
 * shows it in: names of one module only, spelt with an underscore (`convert_model`, `_create_layers` — words anyone's code
 * may use — are not taken). A function so named is a frame of its file, read by stageOfFrame.
 */
const DFC_FUNCTIONS: Readonly<Record<string, string>> = {
  // `fuser.py _handle_neg_feature_shuffle` (dfc-corpus unseen22/34; library file id 70880811962).
  _handle_neg_feature_shuffle: DFC_FILES['fuser.py'],
  // The ONNX translator's graph (tracebacks in test/fixtures/dfc/axes-nhwc, concat-index, parse-unsupported-shuffle).
  _convert_axes_to_nhwc: DFC_FILES['onnx_graph.py'],
  get_concat_info: DFC_FILES['onnx_graph.py'],
  update_reshape_output_format: DFC_FILES['onnx_graph.py'],
  // The translator's layer building (test/fixtures/dfc/parse-unsupported-ops).
  _add_direct_layers: 'hailo_sdk_client/model_translator/edge_nn_translator.py',
};
const FUNCTION_NAMED = new RegExp(`(?<![\\w.])(${Object.keys(DFC_FUNCTIONS).join('|')})(?!\\w)`, 'g');

export function stageOfFrameNamed(text: string): StageName | null {
  let found: StageName | null = null;
  if (text.includes('.py'))
    for (const m of text.matchAll(FRAME_NAMED)) {
      const path = DFC_FILES[m[1]];
      const stage = path ? stageOfFrame(`/${path}`, m[2]) : null;
      if (stage) found = stage;
    }
  if (found === null && text.includes('_'))
    for (const m of text.matchAll(FUNCTION_NAMED)) {
      const stage = stageOfFrame(`/${DFC_FUNCTIONS[m[1]]}`, m[1]);
      if (stage) found = stage;
    }
  return found;
}

/** The stage a DFC module's code belongs to (`hailo_model_optimization.…` → optimize), as stageOfFrame reads a path. */
export function stageOfModule(module: string | undefined): StageName | null {
  return module ? stageOfFrame(`/${module.replace(/\./g, '/')}.py`, '') : null;
}

/**
 * The stage an author names where they quote an error (`Parsing fails: \`KeyError: …\``, `The optimize step dies
 * with:` before the traceback): one stage's words, no other's. `compile` is left out — authors say it for the whole
 * flow (`compiling my model fails at the parser`); the allocator's words are the compile stage's own.
 */
const SAID_STAGES: readonly (readonly [RegExp, StageName])[] = [
  // The ClientRunner's methods an author names for the step (`\`translate_onnx_model\` a explosé direct :`, dfc-corpus unseen23/01):
  // those spelt with an underscore are the DFC's alone (/work/shared/docs/dfc-flow.md §3.2, §7.2); `optimize`/`compile` are anyone's.
  [/\b(?:pars(?:e|er|ing)|translat(?:e|ion|ing)|translate_(?:onnx|tf)_model)\b/i, 'parse'],
  [/\b(?:optimi[sz](?:e|er|ation|ing)|quanti[sz](?:e|ation|ing)|calibrat(?:e|ion|ing)|optimize_full_precision)\b/i, 'optimize'],
  // The allocator's own phrases too (markers.ts ALLOCATOR_ITERATION: `Trying parallel splits...`, `Trying parallel mapping...`).
  [/\b(?:allocat(?:or|ion|ing)|mapping|parallel splits)\b/i, 'compile'],
];

export function stageSaid(text: string): StageName | null {
  let found: StageName | null = null;
  for (const [re, stage] of SAID_STAGES) {
    if (!re.test(text)) continue;
    if (found) return null;
    found = stage;
  }
  return found;
}

/**
 * The step an author says failed, in the clause of their `failed` (a failure told in words, failureWords.ts): the place
 * after the verb (`… failed at the __prefill kernel compilation with X`, `failed during quantization`) if it names one
 * stage, else the clause's subject before it (`The Qwen2.5-0.5B compile then failed`, `Compilation failed`). Here
 * `compile` counts: the words are said of the step that failed, not of the whole flow (stageSaid's caution) — and a
 * place that names another stage wins (`the compile failed at the parser` is the parse).
 */
const COMPILE_SAID = /\b(?:compil(?:e|er|ation|ing)|allocat(?:or|ion|ing)|mapping)\b/i;
/** Every stage's words, each pattern global (for matchAll), made once: SAID_STAGES and COMPILE_SAID. */
const STAGE_WORDS_ALL: readonly (readonly [RegExp, StageName])[] = [...SAID_STAGES, [COMPILE_SAID, 'compile'] as const].map(
  ([re, stage]) => [new RegExp(re.source, 'gi'), stage] as const,
);

export function stageFailedSaid(clause: string, verbAt?: number, verb = 'failed'): StageName | null {
  const at = verbAt === undefined ? /\bfailed\b/.exec(clause) : { index: verbAt };
  if (!at) return null;
  const after = /^\s+(?:at|during|in|while)\s+(.{1,80}?)(?=\s+with\b|[.;:,(]|$)/.exec(clause.slice(at.index + verb.length));
  const said = (text: string) => stageSaid(text) ?? (COMPILE_SAID.test(text) && !SAID_STAGES.some(([re]) => re.test(text)) ? 'compile' : null);
  const place = after ? said(after[1]) : null;
  if (place) return place;
  // The subject: the stage word nearest before the verb, within its clause (`Compilation of the second network group failed`).
  const subject = clause.slice(Math.max(0, at.index - 60), at.index);
  const start = Math.max(subject.lastIndexOf('. '), subject.lastIndexOf('; '), subject.lastIndexOf(', '));
  let nearest: { at: number; stage: StageName } | null = null;
  for (const [re, stage] of STAGE_WORDS_ALL) {
    for (const m of subject.slice(start + 1).matchAll(re)) if (nearest === null || m.index > nearest.at) nearest = { at: m.index, stage };
  }
  return nearest?.stage ?? null;
}

/**
 * The DFC's tool an author makes the subject of `could not` / `couldn't` / `cannot` (`a Shape/Gather/Reshape chain that Hailo's
 * parser also couldn't handle`, dfc-corpus unseen24/38): that tool's stage. Only the tools by name — the activity (`missing during
 * compilation (cannot find -lgsthailometa`, a C build, unseen10/07) is anyone's — nearest before the verb, within its clause.
 */
const TOOL_SUBJECTS: readonly (readonly [RegExp, StageName])[] = [
  [/\b(?:parser|translator)\b/gi, 'parse'],
  [/\b(?:optimi[sz]er|quanti[sz]er)\b/gi, 'optimize'],
  [/\b(?:compiler|allocator|partitioner)\b/gi, 'compile'],
];

export function stageCouldNotSaid(clause: string, verbAt: number): StageName | null {
  const subject = clause.slice(Math.max(0, verbAt - 60), verbAt);
  const start = Math.max(subject.lastIndexOf('. '), subject.lastIndexOf('; '), subject.lastIndexOf(', '), subject.lastIndexOf('('));
  let nearest: { at: number; stage: StageName } | null = null;
  for (const [re, stage] of TOOL_SUBJECTS)
    for (const m of subject.slice(start + 1).matchAll(re)) if (nearest === null || m.index > nearest.at) nearest = { at: m.index, stage };
  return nearest?.stage ?? null;
}

/**
 * The step a program's own failure words name as what it could not do to the model (`Could not parse the model due to dynamic
 * shapes`, dfc-corpus unseen23/06; the DFC CLI's `Failed to compile the model: …`, tune2/22): the verb's stage. Here `compile`
 * counts — it is the tool's word for its own step — and the object must be the model, so HailoRT's `Failed to parse HEF file`
 * (a runtime step) is none.
 */
const FAILED_STEP =
  /\b(?:could not|couldn't|cannot|can't|unable to|failed to)\s+(pars(?:e|ing)|translat(?:e|ing)|optimi[sz](?:e|ing)|quanti[sz](?:e|ing)|calibrat(?:e|ing)|compil(?:e|ing)|allocat(?:e|ing))\s+(?:the |this |your |a |an )?(?:\w+ ){0,2}?(?:model|network|graph|onnx|net)\b/i;

export function stageOfFailedStep(body: string): StageName | null {
  const m = FAILED_STEP.exec(body.length > 2000 ? body.slice(0, 2000) : body);
  if (!m) return null;
  return stageSaid(m[1]) ?? (COMPILE_SAID.test(m[1]) ? 'compile' : null);
}

/**
 * The step an author's line contrasts with the steps it says went through (`L'optimize et la quantification passent sans broncher,
 * mais le compile plante :`, dfc-corpus unseen23/04; `parsing works, but the optimize step dies with:`): the stage the clause after
 * the last `but` names. `compile` counts there when the clause before names another stage: it is a step set against that one.
 */
const CONTRAST = /\b(?:but|however|yet|mais|pero|aber|doch)\b/gi;

export function stageSaidAfterContrast(text: string): StageName | null {
  let at = -1;
  for (const m of text.matchAll(CONTRAST)) at = m.index;
  if (at < 0) return null;
  const rest = text.slice(at);
  const before = text.slice(0, at);
  return stageSaid(rest) ?? (COMPILE_SAID.test(rest) && SAID_STAGES.some(([re]) => re.test(before)) ? 'compile' : null);
}

/** An author's verbs that a step failed or refused (quoted refusals, errors.ts), each a place stageFailedSaid reads around. */
const FAILED_VERBS = /\b(?:fail(?:s|ed)?|crash(?:es|ed)?|rejected|refused|raise[sd]?|throws|threw)\b/g;
/** How far back in an author's paragraph the step that failed may be named. */
const FAILED_SAID_BACK = 320;

/**
 * The step an author says failed, before a message they quote (`Compile then fails in 30s. … placement both fail in 0s on
 * \`x\`: \`…\``, dfc-corpus unseen21/09): stageFailedSaid at each such verb, the nearest before the quote first.
 */
export function stageFailedBefore(text: string): StageName | null {
  const tail = text.length > FAILED_SAID_BACK ? text.slice(-FAILED_SAID_BACK) : text;
  const verbs = [...tail.matchAll(FAILED_VERBS)];
  for (let i = verbs.length - 1; i >= 0; i--) {
    const stage = stageFailedSaid(tail, verbs[i].index, verbs[i][0]);
    if (stage) return stage;
  }
  return null;
}

// ---- a DFC message quoted by its fixed words -------------------------------------------------------------------
/**
 * The catalogue's messages by their fixed words, those before the first value they name (`Automri finished with too many
 * resources on {context} …` → `Automri finished with too many resources on`), each with its stage; only words enough to be
 * the tool's and no one's prose (four words at least).
 */
const MESSAGE_WORDS: readonly (readonly [string, StageName])[] = DFC_MESSAGES.flatMap((m) => {
  const words = m.text.split('{')[0].trim();
  return m.stage && m.stage !== 'runtime' && words.split(/\s+/).length >= 4 ? [[words, m.stage] as const] : [];
});

/**
 * The stage of the DFC message an author quotes by its fixed words without the values that follow them (`fails every tried
 * split with \`Automri finished with too many resources\``, dfc-corpus unseen22/35): the quote is the start of the
 * catalogue's text, four words at least — the tool's own message, so the stage that prints it.
 */
export function stageOfMessageWords(quote: string): StageName | null {
  const q = quote.trim().replace(/[.…]+$/, '');
  if (q.split(/\s+/).length < 4) return null;
  for (const [words, stage] of MESSAGE_WORDS) if (words.startsWith(q)) return stage;
  return null;
}

// ---- the optimizer's algorithm an author names before an error ---------------------------------------------
/**
 * The optimizer's algorithms by the names the model script gives them (the features of `pre_quantization_optimization`
 * and `post_quantization_optimization`, core/alls/schema.ts: `bias_correction`, `global_avgpool_reduction`, …) — those
 * spelt with an underscore, the DFC's own: a bare `finetune` or `equalization` is anyone's word (`SmolVLM finetune fails
 * with …`, library file id 52676609249).
 */
const ALGORITHM_NAMES = new RegExp(
  `\\b(?:${['pre_quantization_optimization', 'post_quantization_optimization']
    .flatMap((c) => Object.keys(COMMANDS.get(c)?.subcommands?.items ?? {}))
    .filter((name) => name.includes('_'))
    .join('|')})\\b`,
);

/**
 * The optimizer's algorithm a line names (`預設 optimization level 跑到 bias_correction 丟`, dfc-corpus unseen14/57): said
 * just before an error no stage's evidence places, it is what was running when the error came — the optimize stage.
 */
export function optimizerAlgorithmIn(text: string): string | null {
  return text.includes('_') ? (ALGORITHM_NAMES.exec(text)?.[0] ?? null) : null;
}

// ---- the Python API call a line shows ----------------------------------------------------------------------
/**
 * A ClientRunner method that runs one stage (/work/shared/docs/dfc-flow.md §3.2, §7.2: `translate_onnx_model`,
 * `optimize(calib)`, `compile()` returning the HEF's bytes): the receiver is any name with `runner` in it, as users
 * write it (`runner.optimize(calib)`, `hef = runner.compile()`, `self._runner.compile()`).
 */
const API_CALL = /\b\w*[Rr]unner\w*\.(translate_onnx_model|translate_tf_model|optimize_full_precision|optimize|compile)\(/;

/** The stage of the call a traceback or a quoted script shows (`runner.optimize(calib)`, IPython's `----> 1 hef = runner.compile()`). */
export function stageOfCall(code: string): StageName | null {
  return stageOfApiCall(code);
}

export function stageOfApiCall(code: string): StageName | null {
  if (!code.includes('unner')) return null;
  const m = API_CALL.exec(code);
  if (!m) return null;
  return m[1].startsWith('translate') ? 'parse' : m[1] === 'compile' ? 'compile' : 'optimize';
}

/**
 * A user's own script of one step, run at a command line (`bash translate.sh yolo26s_seg_640 640`, `./quantize.sh`, `python3
 * optimize_model.py`, dfc-corpus unseen25/04): wrappers around the DFC are named for the step they run, as the ClientRunner's
 * methods are, so the script's name is the call's evidence (stageOfApiCall) — one stage's words in it (stageSaid: the parser's
 * `translate`/`parse`, the optimizer's `quantize`/`optimize`/`calibrate`), no other's. `compile` is no such word: authors name
 * the whole flow's script so (`compile.sh`, `test_split_compile.sh`). The interpreter or `./` must run it: a name in a sentence
 * or a listing is not a run.
 */
const SCRIPT_RUN =
  /(?:^|[\s$#>;&|(])(?:(?:bash|sh|zsh|python3?(?:\.\d{1,2})?|source)\s+(?:-\w+\s+){0,2}|\.\/)(?:[\w.~-]{0,80}\/){0,6}([A-Za-z][\w-]{1,60})\.(?:sh|py)\b/;

export function stageOfScriptRun(line: string): { stage: StageName; script: string } | null {
  if (!line.includes('.sh') && !line.includes('.py')) return null;
  const m = SCRIPT_RUN.exec(line.length > 400 ? line.slice(0, 400) : line);
  if (!m) return null;
  const stage = stageSaid(m[1].replace(/[_-]+/g, ' '));
  return stage ? { stage, script: `${m[1]}${m[0].slice(m[0].lastIndexOf('.'))}` } : null;
}

// ---- artefacts: which stage wrote a HAR ----------------------------------------------------------------------
/**
 * The stage whose output a HAR's name says it is: `hailo optimize M.har` writes `M_optimized.har`, `hailo compiler`
 * `M_compiled.har` (/work/shared/docs/dfc-flow.md §7.2); users' scripts name the optimizer's output `_quantized.har` /
 * `_quantized_model.har` before `ClientRunner(har=…).compile()` (github.com/OlegQm/manipulator_project
 * programs/pt_to_hef_converter/steps/compile.py, github.com/alcino723/ONNX2HEF2AIHAT compile_har.py). Other names say
 * nothing (a parsed HAR is named like the model).
 */
const HAR_NAME = /([\w.-]{1,200})\.har\b/g;

export function stageOfHar(name: string): StageName | null {
  if (/[._-]compiled(?:[._-]model)?$/i.test(name)) return 'compile';
  if (/[._-](?:optimi[sz]ed|quanti[sz]ed)(?:[._-]model)?$/i.test(name)) return 'optimize';
  return null;
}

/** The latest stage a HAR named in the line is the output of (several: the latest), else null. */
export function harStageIn(text: string): StageName | null {
  if (!text.includes('.har')) return null;
  let best: StageName | null = null;
  for (const m of text.matchAll(HAR_NAME)) {
    const s = stageOfHar(m[1]);
    if (s && (best === null || STAGES.indexOf(s) > STAGES.indexOf(best))) best = s;
  }
  return best;
}

/**
 * The stages a command runs, narrowed by what the log shows done before the error: stages `from`…`to` of the
 * command (`from` null: it depends on its input), `done` the latest stage the log shows finished or whose output
 * the run loaded. A single stage left is the command's clue.
 */
export function commandClue(command: { firstStage: StageName | null; lastStage: StageName } | null, done: StageName | null): StageClue | null {
  if (!command) return null;
  const last = STAGES.indexOf(command.lastStage);
  const first = Math.max(command.firstStage === null ? 0 : STAGES.indexOf(command.firstStage), done === null ? 0 : STAGES.indexOf(done) + 1);
  if (first !== last) return null;
  const stage = STAGES[last];
  return {
    stage,
    kind: 'command',
    reason:
      done !== null && (command.firstStage === null || STAGES.indexOf(command.firstStage) < first)
        ? `the command's last stage, after its ${done} output`
        : `the command runs the ${stage} stage only`,
  };
}
