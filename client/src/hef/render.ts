// HTML of the HEF inspector webview, on the one page shell (client/src/webview/html.ts). Pure (no
// vscode import) so it is unit-tested directly. Every string that comes from the file goes through
// `esc` — names, config text, messages. Elements have stable `data-testid`s for the end-to-end tests.
import { esc, messagePage, pageShell, type PageOptions } from '../webview/html';
import { archDevice, shapeString, type HefReport, type MtmdResult, type NmsInspection, type VStreamInfo, type StreamInfo } from '@hailo/api';

export interface InspectorModel {
  report: HefReport;
  mtmd: MtmdResult;
  /** hailo-config.json as embedded (text), when present and readable. */
  configText?: string;
  /** The target arch setting (`hailo.hwArch`), e.g. `hailo10h`. */
  targetArch?: string;
  /** Display name of the file (basename). */
  title: string;
  /** The NMS checks against the script, config and labels file beside the HEF (server/src/core/nms). */
  nms?: NmsInspection;
}

const fmt = (v: number) => v.toLocaleString('en-US');

/** `hailo.hwArch` value → the device name HailoRT uses. */
function badge(ok: boolean | null | undefined, labels = ['PASS', 'FAIL', 'NOT CHECKED']): string {
  const [cls, text] = ok === true ? ['ok', labels[0]] : ok === false ? ['bad', labels[1]] : ['na', labels[2]];
  return `<span class="badge ${cls}">${esc(text)}</span>`;
}

function section(id: string, title: string, body: string, open = true): string {
  return `<details class="section" data-testid="hef-${id}"${open ? ' open' : ''}><summary><h2>${esc(title)}</h2></summary>${body}</details>`;
}

function table(testid: string, head: string[], rows: string[]): string {
  if (!rows.length) return `<p class="muted" data-testid="${testid}-empty">None.</p>`;
  return `<table data-testid="${testid}"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function summary(m: InspectorModel): string {
  const r = m.report;
  const c = r.container;
  const h = r.header;
  const outputs = r.networkGroups.reduce((s, g) => s + g.outputs.length, 0);
  const items: [string, string][] = [
    ['File', `${esc(m.title)} (${fmt(r.fileSize)} bytes)`],
    ['Container', c ? `version ${c.version}, header ${c.headerSize} bytes, protobuf body ${fmt(c.protoSize)} bytes` : 'not a readable HEF container'],
    ['Integrity', `${badge(r.integrity.ok, ['OK', 'FAILED', 'NOT CHECKED'])} ${esc(r.integrity.check.toUpperCase())}`],
    ['HailoRT', runtimeSummary(r)],
    ['Architecture', h ? `${esc(h.hwArch.name)} (hw_arch ${h.hwArch.id})` : 'unknown'],
    ['SDK', h ? esc(h.sdkVersion ?? (h.sdkVersionString || 'unknown')) : 'unknown'],
    ['Compiled', h?.timestamp ? esc(new Date(h.timestamp).toISOString()) : 'unknown'],
    [
      'Network groups',
      `${r.networkGroups.length} (${r.networkGroups.map((g) => esc(g.name)).join(', ') || '—'}); ${outputs} output vstream${outputs === 1 ? '' : 's'}`,
    ],
    ['mtmd contract', badge(m.mtmd.pass, ['PASS', 'FAIL', 'NOT CHECKED'])],
  ];
  return section(
    'summary',
    'Summary',
    `<dl class="grid">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd data-testid="hef-summary-${esc(k.toLowerCase().replace(/\s+/g, '-'))}">${v}</dd>`).join('')}</dl>`,
  );
}

/** The target line's verdict in one badge and phrase (Summary row). */
function runtimeSummary(r: InspectorModel['report']): string {
  const v = r.runtime?.verdicts.find((x) => x.line === r.runtime?.target);
  if (!v) return 'not judged';
  if (v.outcome === 'loads')
    return `${badge(true, [`${v.label} loads it`])}${v.tolerated.length ? ' <span class="muted">(with tolerated damage, see HailoRT)</span>' : ''}`;
  return badge(false, ['', v.outcome === 'crashes' ? `${v.label} crashes on it` : `${v.label} refuses it: ${v.status} ${v.statusName ?? ''}`]);
}

/** What each HailoRT line does at Hef::create on this file (server/src/core/hef/verdict.ts). */
function runtime(m: InspectorModel): string {
  const r = m.report;
  const rows = (r.runtime?.verdicts ?? []).map((v) => {
    const outcome =
      v.outcome === 'loads' ? badge(true, ['loads']) : badge(false, ['', v.outcome === 'crashes' ? 'crashes' : `refuses: ${v.status} ${v.statusName ?? ''}`]);
    const why = v.outcome === 'loads' ? (v.tolerated.length ? `tolerates ${v.tolerated.join('; ')}` : 'every check passes') : v.reason;
    return `<tr data-testid="hef-runtime-row" data-line="${esc(v.line)}" data-outcome="${esc(v.outcome)}" data-status="${v.status ?? ''}"><td>${esc(v.label)}${v.line === r.runtime?.target ? ' <span class="muted">(target)</span>' : ''}</td><td>${outcome}</td><td>${esc(why)}</td></tr>`;
  });
  return section(
    'runtime',
    'HailoRT',
    `<p class="muted">What Hef::create does with this file in each HailoRT line (its checks and their order, from the HailoRT source; checked against a real libhailort 5.2.0). The target is the line the architecture runs on.</p>` +
      table('hef-runtime-table', ['HailoRT', 'Hef::create', 'why'], rows),
  );
}

function integrity(m: InspectorModel): string {
  const r = m.report;
  const rows = r.integrity.checks.map(
    (k) =>
      `<tr data-testid="hef-integrity-row" data-check="${esc(k.name)}"><td>${esc(k.name)}</td><td>${badge(k.ok, ['OK', 'FAILED', 'NOT COMPUTED'])}</td><td>${k.range ? `[${fmt(k.range[0])}, ${fmt(k.range[1])})` : ''}</td><td><code>${esc(k.expected ?? '')}</code></td><td><code>${esc(k.actual ?? '')}</code></td><td>${esc(k.enforcedBy)}</td><td>${esc(k.detail)}</td></tr>`,
  );
  const sections = (r.container?.sections ?? []).map(
    (s) =>
      `<tr data-testid="hef-section-row" data-section="${esc(s.name)}"><td>${esc(s.name)}</td><td>${fmt(s.start)}</td><td>${fmt(s.end)}</td><td>${fmt(s.end - s.start)}</td><td>${s.present === s.end - s.start ? badge(true, ['complete']) : badge(false, ['', `${fmt(s.present)} present`])}</td></tr>`,
  );
  const fields = (r.container?.fields ?? []).map(
    (f) => `<tr><td>${esc(f.name)}</td><td>${f.offset}</td><td>${f.size}</td><td><code>${esc(f.value)}</code></td></tr>`,
  );
  return section(
    'integrity',
    'Integrity',
    `<p data-testid="hef-integrity-status">${badge(r.integrity.ok, ['OK', 'FAILED', 'NOT CHECKED'])} ${esc(r.integrity.detail)}</p>` +
      table('hef-integrity-table', ['check', 'result', 'bytes', 'expected', 'computed', 'checked by', 'detail'], rows) +
      `<h3>Layout</h3>` +
      table('hef-sections-table', ['section', 'start', 'end', 'bytes', 'in file'], sections) +
      `<details><summary>Header fields</summary>${table('hef-header-table', ['field', 'offset', 'size', 'value'], fields)}</details>`,
  );
}

function arch(m: InspectorModel): string {
  const h = m.report.header;
  if (!h) return section('arch', 'Architecture compatibility', '<p class="muted">The HEF header was not read.</p>');
  const target = m.targetArch ? archDevice(m.targetArch.toLowerCase()) : undefined;
  const rows = [
    `<tr><td>HEF arch</td><td>${esc(h.hwArch.name)} (hw_arch ${h.hwArch.id})</td></tr>`,
    `<tr><td>HailoRT runs it on</td><td data-testid="hef-compatible-devices">${esc(h.hwArch.compatibleDevices.join(', ') || 'no known device')}</td></tr>`,
    `<tr><td>Hailo-10H (mtmd)</td><td>${badge(h.hwArch.compatibleDevices.includes('HAILO10H'), ['yes', 'no'])}</td></tr>`,
  ];
  if (m.targetArch) {
    rows.push(
      `<tr><td>Your target (hailo.hwArch = ${esc(m.targetArch)})</td><td>${target ? badge(h.hwArch.compatibleDevices.includes(target), ['yes', 'no']) : esc('unknown arch name')}</td></tr>`,
    );
  }
  const exts = m.report.extensions.map(
    (e) =>
      `<tr data-testid="hef-extension-row"><td>${e.id}</td><td>${esc(e.name)}</td><td>${e.optional ? 'optional' : 'required'}</td><td>${e.supported ? badge(true, ['supported']) : badge(false, ['', 'unsupported'])}</td><td class="muted">${esc(e.label)}</td></tr>`,
  );
  return section(
    'arch',
    'Architecture compatibility',
    `<table data-testid="hef-arch-table"><tbody>${rows.join('')}</tbody></table><details data-testid="hef-extensions"><summary>Extensions (${m.report.extensions.length})</summary>${table('hef-extensions-table', ['type', 'name', 'kind', 'HailoRT', 'label in file'], exts)}</details>`,
  );
}

function vstreamRow(v: VStreamInfo): string {
  const from = 'op' in v.from ? `op ${esc(v.from.op)}` : esc(v.from.stream);
  return `<tr data-testid="hef-vstream-row" data-name="${esc(v.name)}" data-direction="${v.direction}"><td>${v.direction === 'input' ? 'Input' : 'Output'}</td><td><code>${esc(v.name)}</code></td><td>${esc(shapeString(v))}</td><td>${fmt(v.frameSize)}</td><td>${esc(v.network)}</td><td>${from}</td></tr>`;
}

function streamRow(s: StreamInfo): string {
  return `<tr data-testid="hef-stream-row" data-name="${esc(s.name)}"${s.hiddenBy ? ' class="hidden-stream"' : ''}><td>${s.direction}</td><td><code>${esc(s.name)}</code></td><td>${esc(s.edgeType)}</td><td>${esc(s.deviceOrder)}</td><td>${s.shape.join('x')}</td><td>${s.hwShape.join('x')}</td><td>${s.dataBytes}</td><td>${s.context}</td><td>${s.padIndex ?? ''}</td><td>${s.hiddenBy ? `hidden by ${esc(s.hiddenBy)}` : ''}</td></tr>`;
}

function networks(m: InspectorModel): string {
  const parts = m.report.networkGroups.map((g) => {
    const meta = [
      g.multiContext ? `multi context, ${g.contexts} contexts` : 'single context',
      g.bottleneckFps !== undefined ? `bottleneck ${g.bottleneckFps.toFixed(1)} FPS` : '',
      g.latencyMs !== undefined ? `latency ${g.latencyMs.toFixed(2)} ms` : '',
      g.computationalOps !== undefined ? `${fmt(g.computationalOps)} ops` : '',
    ].filter(Boolean);
    const ops = g.ops.map(
      (op) =>
        `<tr data-testid="hef-op-row" data-name="${esc(op.name)}"><td><code>${esc(op.name)}</code></td><td>${esc(op.kind)}${op.nmsType ? ` (${esc(op.nmsType)})` : ''}</td><td>${op.inputs.map((i) => esc(i.stream ?? `pad ${i.padIndex} (unconnected)`)).join('<br>')}</td><td>${op.outputs.map(esc).join('<br>')}</td><td>${Object.entries(
          op.params,
        )
          .map(([k, v]) => `${esc(k)}: ${esc(v)}`)
          .join('<br>')}</td></tr>`,
    );
    return (
      `<div class="group" data-testid="hef-network-group" data-name="${esc(g.name)}"><h3>${esc(g.name)}</h3><p class="muted">${esc(meta.join(' · '))}</p>` +
      `<p>Networks: ${g.networks.map((n) => `<code>${esc(n)}</code>`).join(', ')}</p>` +
      table(
        'hef-vstreams-table',
        ['', 'vstream', 'format (as hailortcli prints it)', 'frame bytes', 'network', 'from'],
        [...g.inputs, ...g.outputs].map(vstreamRow),
      ) +
      (g.ops.length ? `<h4>Post-process ops</h4>${table('hef-ops-table', ['op', 'kind', 'consumes (hidden streams)', 'adds', 'parameters'], ops)}` : '') +
      `<details data-testid="hef-streams"><summary>Boundary streams (${g.streams.length})</summary>${table('hef-streams-table', ['dir', 'stream', 'edge', 'device order', 'shape', 'hw shape', 'bytes/elem', 'context', 'pad', ''], g.streams.map(streamRow))}</details>` +
      `<p class="muted">Sorted output order (${esc(g.sortedOutputSource)}): ${g.sortedOutputNames.map((n) => `<code>${esc(n)}</code>`).join(', ') || '—'}</p></div>`
    );
  });
  return section('networks', 'Networks and streams', parts.join('') || '<p class="muted">No network group was read.</p>');
}

function range(values: number[]): string {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return values.length === 0 ? '—' : lo === hi ? String(lo) : `${lo} … ${hi}`;
}

function quant(m: InspectorModel): string {
  const rows: string[] = [];
  for (const g of m.report.networkGroups) {
    for (const v of [...g.inputs, ...g.outputs]) {
      const q = v.quant;
      const per = q.perFeature
        ? `<details><summary>${q.perFeature.scale.length} features: scale ${esc(range(q.perFeature.scale))}, zp ${esc(range(q.perFeature.zp))}</summary><pre class="values">${esc(
            q.perFeature.scale
              .slice(0, 256)
              .map((s, i) => `${i}: scale ${s}, zp ${q.perFeature!.zp[i]}`)
              .join('\n') + (q.perFeature.scale.length > 256 ? `\n… ${q.perFeature.scale.length - 256} more` : ''),
          )}</pre></details>`
        : '';
      rows.push(
        `<tr data-testid="hef-quant-row" data-name="${esc(v.name)}"><td><code>${esc(v.name)}</code></td><td>${esc(v.type)}</td><td>${q.zp}</td><td>${q.scale}</td><td>${q.limvalsMin || q.limvalsMax ? `[${q.limvalsMin}, ${q.limvalsMax}]` : ''}</td><td>${per}</td></tr>`,
      );
    }
  }
  return section(
    'quant',
    'Quantisation',
    `<p class="muted">Dequantise with (q − zp) × scale. Per-feature values apply to outputs of HEFs with OUTPUT_SCALE_PER_FEATURE; HailoRT then reports the scalar pair as 0.</p>` +
      table('hef-quant-table', ['vstream', 'type', 'zp', 'scale', 'limvals', 'per feature'], rows),
    false,
  );
}

function resources(m: InspectorModel): string {
  const rows = m.report.externalResources.map(
    (r) =>
      `<tr data-testid="hef-resource-row" data-name="${esc(r.name)}"><td><code>${esc(r.name)}</code></td><td>${fmt(r.size)}</td><td>${fmt(r.fileOffset)}</td><td><code>${esc(r.xxhash)}</code></td><td>${r.checksumOk === undefined ? badge(null, ['', '', 'no checksum']) : badge(r.checksumOk, ['OK', 'BAD'])}</td><td>${esc(r.detail)}</td></tr>`,
  );
  let viewer = '';
  if (m.configText !== undefined) {
    let pretty = m.configText;
    try {
      pretty = JSON.stringify(JSON.parse(m.configText.replace(/^\ufeff/, '')), null, 2);
    } catch {
      /* show as stored */
    }
    viewer = `<h3>hailo-config.json</h3><pre class="config" data-testid="hef-config-viewer">${esc(pretty)}</pre>`;
  }
  return section(
    'resources',
    'External resources',
    table('hef-resources-table', ['name', 'bytes', 'file offset', 'XXH3', 'checksum', 'detail'], rows) + viewer,
  );
}

function contract(m: InspectorModel): string {
  const c = m.mtmd;
  const failed = c.rules.filter((r) => r.pass === false).length;
  const rows = c.rules.map(
    (r) =>
      `<tr data-testid="hef-contract-row" data-rule-id="${esc(r.id)}" data-pass="${r.pass === null ? 'na' : String(r.pass)}"><td>${badge(r.pass)}</td><td class="nowrap"><code>${esc(r.id)}</code></td><td>${esc(r.title)}</td><td>${esc(r.detail)}${r.llamaError ? `<div class="llama">llama.cpp: <code>${esc(r.llamaError)}</code></div>` : ''}</td><td>${esc(r.confidence)}</td></tr>`,
  );
  const verdict = c.pass ? 'meets the mtmd contract' : `${failed} of ${c.rules.length} rules fail`;
  const derived = Object.entries(c.derived)
    .map(([k, v]) => `${esc(k)} = ${fmt(v)}`)
    .join(' · ');
  return section(
    'contract',
    'mtmd contract (llama.cpp Hailo vision encoder)',
    `<p data-testid="hef-contract-status" data-pass="${c.pass}">${badge(c.pass)} ${esc(verdict)}${c.networkGroup ? ` — network group <code>${esc(c.networkGroup)}</code>` : ''}</p>` +
      (derived ? `<p class="muted">${derived}</p>` : '') +
      table('hef-contract-table', ['', 'rule', 'what llama.cpp needs', 'detail', 'evidence'], rows),
  );
}

const baseName = (p: string) => p.split(/[\\/]/).pop() ?? p;

/** The HEF's NMS next to the config, script and labels file beside it, and where they disagree. */
function nms(m: InspectorModel): string {
  const n = m.nms;
  if (!n) return '';
  const f = n.hef;
  const pieces = [
    n.scriptPath ? `script <code>${esc(baseName(n.scriptPath))}</code>` : '',
    n.configPath ? `config <code>${esc(baseName(n.configPath))}</code>` : '',
    n.labelsPath ? `labels <code>${esc(baseName(n.labelsPath))}</code>` : '',
  ].filter(Boolean);
  if ((!f || f.kind === 'none') && !pieces.length && !n.located.length) return '';
  const rows: string[] = [];
  const row = (what: string, value: string) => rows.push(`<tr><th scope="row">${esc(what)}</th><td>${value}</td></tr>`);
  if (f) {
    row(
      'NMS',
      f.kind === 'op'
        ? `net-flow ${esc(f.opType ?? '')} op (host CPU, engine=cpu)`
        : f.kind === 'on-chip'
          ? 'on the NN core (engine=nn_core)'
          : 'none: the outputs are the raw heads',
    );
    if (f.classes !== undefined) row('classes', fmt(f.classes));
    if (f.outputClasses !== undefined) row('classes in the output', fmt(f.outputClasses));
    if (f.maxProposalsPerClass !== undefined) row('max boxes per class', fmt(f.maxProposalsPerClass));
    if (f.scoreTh !== undefined) row('score threshold', esc(String(f.scoreTh)));
    if (f.iouTh !== undefined) row('IoU threshold', esc(String(f.iouTh)));
    if (f.imageDims) row('image', `${fmt(f.imageDims[0])} × ${fmt(f.imageDims[1])}`);
    if (f.regressionLength !== undefined) row('regression_length', fmt(f.regressionLength));
    if (f.decoders?.length)
      row(
        'decoders',
        f.decoders
          .map((d) => `${d.stride !== undefined ? `stride ${fmt(d.stride)}: ` : ''}${d.layers.map((l) => `<code>${esc(l)}</code>`).join(' + ')}`)
          .join('<br>'),
      );
  }
  const findings = n.located.map(
    (x) =>
      `<tr data-testid="hef-nms-finding" data-code="${esc(x.code)}"><td>${badge(x.severity === 'error' ? false : null, ['', 'error', esc(x.severity)])}</td><td><code>${esc(x.code)}</code></td><td class="nowrap">${esc(baseName(x.path))}:${fmt(x.range.start.line + 1)}</td><td>${esc(x.message)}</td></tr>`,
  );
  const ok = n.located.length === 0;
  const verdict = !pieces.length
    ? 'no NMS config, script or labels file beside this HEF to compare with'
    : ok
      ? `agrees with the ${pieces.length === 1 ? 'file' : 'files'} beside it`
      : `${n.located.length} disagreement${n.located.length === 1 ? '' : 's'} with the files beside it`;
  return section(
    'nms',
    'NMS',
    `<p data-testid="hef-nms-status" data-pass="${pieces.length ? String(ok) : 'na'}">${badge(pieces.length ? ok : null)} ${esc(verdict)}${pieces.length ? ` — ${pieces.join(', ')}` : ''}</p>` +
      (rows.length ? `<table data-testid="hef-nms-facts"><tbody>${rows.join('')}</tbody></table>` : '') +
      (n.located.length ? table('hef-nms-findings', ['', 'code', 'where', 'message'], findings) : '') +
      n.problems.map((p) => `<p class="muted">${esc(p)}</p>`).join(''),
  );
}

function problems(m: InspectorModel): string {
  const rows = m.report.problems.map(
    (p) =>
      `<tr data-testid="hef-problem-row" data-code="${esc(p.code)}"><td>${badge(p.severity === 'error' ? false : null, ['', 'error', esc(p.severity)])}</td><td><code>${esc(p.code)}</code></td><td>${p.offset !== undefined ? fmt(p.offset) : ''}</td><td>${esc(p.message)}</td></tr>`,
  );
  return section(
    'problems',
    `Problems (${m.report.problems.length})`,
    table('hef-problems-table', ['', 'code', 'byte', 'message'], rows),
    m.report.problems.length > 0,
  );
}

/** The whole inspector page. */
export function renderInspector(m: InspectorModel, o: PageOptions): string {
  return pageShell(o, {
    title: m.title,
    bodyAttrs: { 'data-testid': 'hef-inspector' },
    noDefaultContextMenu: true,
    body: `<header class="top"><h1>${esc(m.title)}</h1><div class="actions"><button type="button" id="run-on-device" data-testid="hef-run-on-device" title="Hailo: Run on Device (trusted workspaces)">Run on Device</button><button type="button" id="copy-json" data-testid="hef-copy-json">Copy as JSON</button><button type="button" id="reload" data-testid="hef-reload">Reload</button></div></header>
<p class="status" id="status" data-testid="hef-status" role="status"></p>
${summary(m)}
${contract(m)}
${runtime(m)}
${nms(m)}
${integrity(m)}
${arch(m)}
${networks(m)}
${quant(m)}
${resources(m)}
${problems(m)}`,
  });
}

/** A minimal page while the file is being read, or when reading failed. */
export function renderMessage(title: string, message: string, o: PageOptions): string {
  return messagePage(title, message, o, 'hef-inspector-message');
}
