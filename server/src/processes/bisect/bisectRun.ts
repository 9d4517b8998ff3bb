// Where the DFC's parser first refuses a model: the whole model is parsed first (as a user would);
// when it refuses, prefixes of the model's topological order are parsed, each cut at its frontier
// with the parser's own end_node_names, in one DFC container (parserContainer.ts), halving the gap
// between the longest prefix seen to parse and the shortest seen to refuse (core/onnx/bisect.ts).
// The answer: the node whose inclusion first makes the parser refuse, its op and shapes (our shape
// inference), the DFC's own message classified by the DFC log reader, what is known about the node
// (pre-flight findings with their public evidence), and every parse run. Finished parses are cached
// beside the model (cache.ts), so a cancelled search resumes where it stopped.
import { FileRoots } from '../../core/common/confined';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { analyzeOnnx, type OnnxAnalysis } from '../../core/onnx/analysis';
import { readOnnxFile } from '../../core/onnx/reader';
import { opKnowledge } from '../../core/onnx/dfcFacts';
import { renderGraphView } from '../../core/onnx/graphView';
import { transformerFindings } from '../../core/onnx/transformerRules';
import type { Finding } from '../../core/onnx/preflight';
import {
  BisectInputError,
  BisectSearch,
  bisectGraph,
  constantAncestors,
  cutKey,
  nodeFacts,
  parseBudget,
  prefixCut,
  type Cut,
  type NodeFacts,
} from '../../core/onnx/bisect';
import { readDfcLog } from '../../core/dfc';
import type { DockerSettings } from '../compile/runner';
import { prepareDriverRun, type DriverJobEnv } from '../noise/driverJob';
import { ParseCache, fileSha256, sidecarPath, type CachedParse } from './cache';
import { ParserContainer } from './parserContainer';

export interface BisectRequest {
  model: string;
  hwArch?: string;
  startNodeNames?: string[];
}

export interface BisectRun {
  /** Prefix length (nodes of the search order); n = the whole model. */
  prefix: number;
  cut: Cut;
  outcome: 'parsed' | 'refused';
  seconds: number;
  cached: boolean;
  /** `Exception: message` for a refusal. */
  message?: string;
  frames?: string[];
  /** Counted as parsed: the translation went through, an end node was folded away (the DFC's InvalidHNError). */
  absorbed?: string;
}

export interface FirstRefusal {
  node: string;
  opType: string;
  /** `ExceptionClass: message` as the DFC raised it. */
  message: string;
  exception: string | null;
  /** The innermost function names of the DFC's traceback (e.g. get_concat_info). */
  frames: string[];
  facts: NodeFacts;
  /** When unnamed nodes hid a frontier: every node the refusal lies among (else just the node). */
  among: string[];
  /** Constant shape plumbing the node brings into the parse (a Shape→…→Concat chain feeding it). */
  brings: { node: string; opType: string }[];
  /** The DFC log reader's reading of the message (docs/dfc-log.md). */
  dfcCode: string | null;
  dfcExplanation: string | null;
  recommendedEndNodes: string[];
  /** The DFC tables' word on the op (dfcFacts.ts). */
  op: { status: string; summary: string; evidence: string };
  /** Pre-flight findings on the node or on what it brings in, with their public evidence and fixes. */
  known: Finding[];
  /** The longest prefix that parsed (its cut), and the shortest that refused. */
  lastParsed: Cut | null;
  refusedCut: Cut;
  /** Where the node's name is in the ONNX graph view (1-based), for the editor. */
  place?: { line: number; column: number; endLine: number; endColumn: number };
}

export interface BisectOutcome {
  status: 'ok' | 'refused-input' | 'docker-failed' | 'failed' | 'cancelled';
  message?: string;
  model: string;
  sha256?: string;
  /** Nodes in the search order. */
  nodes: number;
  budget: number;
  image?: string;
  hwArch: string;
  dfcVersion: string | null;
  firstRefusal: FirstRefusal | null;
  runs: BisectRun[];
  cache?: string;
  container?: { name: string; removed: boolean };
  /** What the caller should know about the run itself (e.g. the cache could not be written). */
  notes: string[];
}

export interface BisectProgress {
  run: number;
  budget: number;
  prefix: number;
  nodes: number;
  lo: number;
  hi: number | null;
  cached: boolean;
  /** Set once the parse finished. */
  outcome?: 'parsed' | 'refused';
}

export interface BisectEnv extends DriverJobEnv {
  onProgress?(p: BisectProgress): void;
}

const netName = (model: string) =>
  basename(model)
    .replace(/\.onnx$/i, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 40) || 'net';

export async function bisectParser(req: BisectRequest, settings: DockerSettings, env: BisectEnv): Promise<BisectOutcome> {
  const hwArch = req.hwArch ?? 'hailo10h';
  const base: BisectOutcome = { status: 'ok', model: req.model, nodes: 0, budget: 0, hwArch, dfcVersion: null, firstRefusal: null, runs: [], notes: [] };
  let a: OnnxAnalysis;
  let g;
  try {
    a = analyzeOnnx(readOnnxFile(req.model));
    g = bisectGraph(a, req.startNodeNames ?? []);
  } catch (err) {
    const why = err instanceof BisectInputError ? err.message : `cannot read ${basename(req.model)}: ${(err as Error).message}`;
    return { ...base, status: 'refused-input', message: why };
  }
  const n = g.order.length;
  const budget = parseBudget(n);
  const sha256 = fileSha256(req.model);
  const out: BisectOutcome = { ...base, sha256, nodes: n, budget };

  const prepared = await prepareDriverRun(
    {
      driverFile: 'hailo_bisect.py',
      label: `bisect-${netName(req.model)}`,
      model: req.model,
      folders: [dirname(req.model)],
      args: (inside) => ['--model', inside(0, basename(req.model)), '--net', netName(req.model), '--hw-arch', hwArch],
      workDir: writableFolder(dirname(req.model)) ?? join(tmpdir(), 'hailo-tools-bisect'),
      hwArch,
    },
    settings,
    env,
  );
  if (prepared.status !== 'ready') return { ...out, status: prepared.status, message: prepared.message };
  out.image = prepared.spec.image;
  const cache = new ParseCache(sidecarPath(req.model), req.model, sha256);
  out.cache = cache.path;

  let container: ParserContainer | undefined;
  const search = new BisectSearch(g);
  const answers = new Map<number, CachedParse>();
  try {
    for (let k = search.next(); k !== null; k = search.next()) {
      if (out.runs.length >= budget) return { ...out, status: 'failed', message: `the search needed more than ${budget} parses; stopped` };
      const cut: Cut = k === n ? { start: g.start, end: null } : prefixCut(a, g, k);
      const key = ParseCache.key(prepared.spec.image, hwArch, cutKey(cut));
      const progress = { run: out.runs.length + 1, budget, prefix: k, nodes: n, lo: search.lo, hi: search.hi };
      let parse = cache.get(key);
      const cached = !!parse;
      env.onProgress?.({ ...progress, cached });
      if (!parse) {
        if (!container) {
          const started = await ParserContainer.start(prepared, env);
          if ('failed' in started) {
            if (started.failed === 'cancelled') return { ...out, status: 'cancelled' };
            return { ...out, status: 'docker-failed', message: started.failed };
          }
          container = started;
          out.dfcVersion = container.dfcVersion;
        }
        const t0 = performance.now();
        const got = await container.parse(cut);
        if ('failed' in got) {
          if (got.failed === 'cancelled' || env.signal?.aborted) return { ...out, status: 'cancelled' };
          return { ...out, status: 'failed', message: got.failed };
        }
        // An end node folded into its neighbours is missing in the HN of a translation that went
        // through (docs/research/dfc-flow.md#error-classes, InvalidHNError): the prefix parsed; only the name is gone.
        const absorbed = got.outcome === 'refused' && (got.exception === 'InvalidHNError' || /missing in the HN/.test(got.message ?? ''));
        parse = {
          outcome: absorbed ? 'parsed' : got.outcome,
          ...(absorbed ? { absorbed: got.message } : {}),
          seconds: Math.round(performance.now() - t0) / 1000,
          exception: got.exception,
          message: got.message,
          frames: got.frames,
          console: got.console,
          layers: got.layers,
          dfcVersion: container.dfcVersion,
          at: new Date().toISOString(),
        };
        try {
          cache.put(key, parse);
        } catch (err) {
          // A read-only model folder: the search goes on, it just cannot resume.
          if (!out.notes.length)
            out.notes.push(`the finished parses could not be kept beside the model (${(err as Error).message}); a second run starts afresh`);
        }
      } else out.dfcVersion ??= parse.dfcVersion ?? null;
      answers.set(k, parse);
      search.record(k, parse.outcome);
      out.runs.push({
        prefix: k,
        cut,
        outcome: parse.outcome,
        seconds: parse.seconds,
        cached,
        ...(parse.outcome === 'refused' ? { message: refusalText(parse), frames: parse.frames ?? [] } : {}),
        ...(parse.absorbed ? { absorbed: parse.absorbed } : {}),
      });
      env.onProgress?.({ ...progress, cached, outcome: parse.outcome, lo: search.lo, hi: search.hi });
    }
  } finally {
    if (container) out.container = { name: container.name, removed: await container.close() };
    else prepared.cleanup();
  }
  const among = search.refusing();
  const unnamed = g.order.filter((m) => !m.name).length;
  if (among && among.length > 1 && unnamed) {
    out.notes.push(
      `${unnamed} of the ${n} nodes have no name, and end_node_names takes node names, so the refusal is only known to lie among ${among.length} nodes; name the nodes (e.g. with onnx: n.name = n.name or f"{n.op_type}_{i}" for each graph.node) and run again`,
    );
  }
  if (among && search.hi !== null) {
    const refused = answers.get(search.hi)!;
    out.firstRefusal = describe(
      a,
      req.model,
      among,
      refused,
      search.lo > 0 ? prefixCut(a, g, search.lo) : null,
      out.runs.find((r) => r.prefix === search.hi)!.cut,
      out.dfcVersion,
    );
  }
  return out;
}

/** The folder when we may write into it (the staging folder goes there, as for the other analyses). */
function writableFolder(dir: string): string | undefined {
  return FileRoots.of([dir]).canWrite(dir) ? dir : undefined;
}

function refusalText(p: CachedParse): string {
  return p.exception ? `${p.exception}: ${p.message ?? ''}`.replace(/: $/, '') : (p.message ?? 'the parser refused');
}

function describe(
  a: OnnxAnalysis,
  model: string,
  among: OnnxAnalysis['model']['graph']['nodes'],
  refused: CachedParse,
  lastParsed: Cut | null,
  refusedCut: Cut,
  dfcVersion: string | null,
): FirstRefusal {
  const node = among[0];
  const facts = nodeFacts(a, node);
  // Constant nodes themselves are not worth naming; the computations they feed are.
  const brings = among.flatMap((m) => constantAncestors(a, m)).filter((m) => m.opType !== 'Constant');
  // The DFC log reader classifies the parser's own console (its traceback and message).
  const report = readDfcLog(refused.console || `${refusalText(refused)}\n`, { onnxPath: model });
  const diag = report.diagnostics.find((d) => d.severity === 'error') ?? report.diagnostics[0];
  // Findings on the node, the nodes it shares the refusal with, or the plumbing it brings in; the
  // transformer pitfalls at the severity the DFC release in use allows.
  // A model-level finding counts when it names one of them (e.g. the plumbing Concats the DFC's
  // onnxsim retry folds).
  const nearNodes = [...among, ...brings];
  const near = new Set(nearNodes.map((m) => m.index));
  const names = nearNodes.map((m) => m.name).filter(Boolean);
  const pitfall = new Set(transformerFindings(a).map((f) => f.code));
  const known = [...a.findings.filter((f) => !pitfall.has(f.code)), ...transformerFindings(a, dfcVersion ?? undefined)].filter((f) =>
    f.nodeIndex !== undefined ? near.has(f.nodeIndex) : names.some((nm) => f.message.includes(nm)),
  );
  const view = renderGraphView(a, basename(model));
  const span = view.nodeNameSpan.get(node);
  const k = opKnowledge(node.opType, node.domain);
  return {
    node: facts.node,
    opType: node.opType,
    message: refusalText(refused),
    exception: refused.exception ?? null,
    frames: refused.frames ?? [],
    facts,
    among: among.map((m) => m.name || `${m.opType}#${m.index}`),
    brings: brings.map((m) => ({ node: m.name || `${m.opType}#${m.index}`, opType: m.opType })),
    dfcCode: diag?.code ?? null,
    dfcExplanation: diag?.message ?? null,
    recommendedEndNodes: report.recommendedEndNodes,
    op: { status: k.status, summary: k.summary, evidence: k.evidence },
    known,
    lastParsed,
    refusedCut,
    ...(span ? { place: { line: span.line + 1, column: span.start + 1, endLine: span.line + 1, endColumn: span.end + 1 } } : {}),
  };
}
