// The structural rules HailoRT's HEF parser applies to every core op before it accepts a file
// (hef.cpp, `create_metadata_per_arch` → `parse_operations` / `parse_trigger_action` /
// `parse_action`, `fill_layer_info`, `get_inter_context_layer_info`; the same in v4.20–v5.2), in
// its order: the preliminary config's operations, then per context its operations and its edge
// layers. Each finding carries the status HailoRT answers — or `crash` where release builds of
// libhailort read a missing element (the `assert` on buffer_indices is compiled out) and die. A
// multi-layout architecture (Hailo-8L, Hailo-15M) is walked through its partial core ops.
import type { ProtoAction, ProtoEdgeLayer, ProtoLayerInfo, ProtoLayerMux, ProtoNetworkGroup, ProtoOperation } from './protoTypes';
import { asHef } from './protoTypes';
import { has, type Msg } from './protoDecode';
import { MULTI_LAYOUT_ARCHS } from './tables';
import type { HefProblem } from './problems';

/** ProtoHEFTrigger oneof cases (hef.proto field numbers) and what parse_trigger_action does with them. */
const TRIGGER_CASES: Record<string, number> = {
  trigger_lcu: 2,
  trigger_none: 3,
  trigger_all_data_was_sent: 4,
  trigger_all_data_was_received: 5,
  trigger_nms: 6,
  trigger_dma_idle: 7,
};

/** ProtoHEFAction oneof cases HailoRT's parse_action knows; write_data (2) and write_compressed_data (4) it does not. */
const ACTION_CASES: Record<string, number> = {
  write_data: 2,
  write_data_ccw: 3,
  write_compressed_data: 4,
  enable_sequencer: 5,
  wait_for_seqeuncer: 6,
  disable_lcu: 7,
  enable_lcu: 8,
  none: 9,
  allow_input_dataflow: 10,
  wait_for_module_config_done: 11,
  debug: 12,
  enable_nms: 13,
  write_data_by_type: 14,
  switch_lcu_batch: 15,
  write_data_ccw_ptr: 16,
  allow_config_channels: 17,
  disable_data_channels: 18,
};
const NOT_PARSED_ACTIONS = new Set(['write_data', 'write_compressed_data']);
/** Actions parse_action learned in a later release (the tags): before it, "Action N not implemented" (8). */
const PARSED_SINCE: Record<string, string> = { debug: '4.19.0', allow_config_channels: '5.0.1', disable_data_channels: '5.0.1' };

const MAX_FINDINGS = 20;

interface Walk {
  problems: HefProblem[];
  containerVersion: number;
  count: number;
}

function add(w: Walk, p: Omit<HefProblem, 'area' | 'severity'> & { severity?: HefProblem['severity'] }): void {
  if (++w.count > MAX_FINDINGS) return; // the first one decides HailoRT's answer; a few more say how widespread
  w.problems.push({ severity: 'error', area: 'compat', ...p });
}

function caseOf(msg: Record<string, unknown> | undefined, cases: Record<string, number>): string | undefined {
  if (!msg) return undefined;
  return Object.keys(cases).find((k) => has(msg as Msg, k));
}

function operations(w: Walk, ops: ProtoOperation[] | undefined, where: string): void {
  (ops ?? []).forEach((op, i) => {
    const at = `${where}, operation ${i}`;
    const trigger = caseOf(op.trigger, TRIGGER_CASES);
    if (!trigger) {
      add(w, { code: 'hef/no-trigger', status: 26, message: `Unsupported trigger given 0: ${at} has no trigger, so HailoRT refuses the HEF.` });
    } else if (trigger === 'trigger_all_data_was_received') {
      add(w, { code: 'hef/trigger-not-implemented', status: 7, message: `kTriggerAllDataWasReceived trigger is not supported (${at}).` });
    }
    (op.actions ?? []).forEach((a: ProtoAction, j) => {
      const kind = caseOf(a, ACTION_CASES);
      const atAction = `${at}, action ${j}`;
      if (!kind || NOT_PARSED_ACTIONS.has(kind)) {
        add(w, {
          code: 'hef/action-not-implemented',
          status: 8,
          message: `Action ${kind ? ACTION_CASES[kind] : 0} not implemented: ${atAction} ${kind ? `is a ${kind} action, which HailoRT does not parse` : 'sets no action'}.`,
        });
      } else if (PARSED_SINCE[kind]) {
        add(w, {
          code: 'hef/action-not-implemented',
          status: 8,
          before: PARSED_SINCE[kind],
          message: `Action ${ACTION_CASES[kind]} not implemented: ${atAction} is a ${kind} action, which HailoRT parses from ${PARSED_SINCE[kind]} on.`,
        });
      } else if (kind === 'write_data_ccw' && w.containerVersion !== 0) {
        add(w, {
          code: 'hef/ccw-kind',
          status: 26,
          message: `WriteDataCcw action is not supported for hef version 1 and newer (${atAction}; the container is V${w.containerVersion}).`,
        });
      } else if (kind === 'write_data_ccw_ptr' && w.containerVersion === 0) {
        add(w, { code: 'hef/ccw-kind', status: 26, message: `kWriteDataCcwPtr action is not supported for hef version 0 (${atAction}).` });
      }
    });
  });
}

/** parse_nn_stream_config: the periph registers are 16 bits wide, the padded frame 32 bits (26 each). */
function nnStreamConfig(w: Walk, li: ProtoLayerInfo | undefined, where: string): boolean {
  const b = li?.edge_layer_base ?? {};
  const name = String(li?.name ?? '');
  const bytes = Number(b.core_bytes_per_buffer ?? 0);
  const buffers = Number(b.core_buffers_per_frame ?? 0);
  const padded = Number(b.padded_width ?? 0) * Number(b.padded_features ?? 0) * Number(b.padded_height ?? 0) * Number(b.data_bytes ?? 0);
  const fault =
    bytes > 0xffff
      ? `core_bytes_per_buffer is too big: ${where} '${name}' has ${bytes} (HailoRT keeps it in 16 bits)`
      : buffers > 0xffff
        ? `core_buffers_per_frame is too big: ${where} '${name}' has ${buffers} (HailoRT keeps it in 16 bits)`
        : padded > 0xffffffff
          ? `padded shape too big: ${where} '${name}' pads to ${padded} bytes (more than 32 bits)`
          : undefined;
  if (fault) add(w, { code: 'hef/nn-stream-config', status: 26, message: `${fault}; HailoRT fails to parse its stream config.` });
  // fill_layer_info_with_base_info, right after the stream config (4.18.0 … 5.2.0): the stream index is 8 bits.
  const sysIndex = Number(b.sys_index ?? 0);
  if (!fault && sysIndex > 0xff) {
    add(w, {
      code: 'hef/sys-index',
      status: 26,
      message: `Failed to parse HEF. Invalid sys_index: ${sysIndex} (${where} '${name}'; HailoRT keeps it in 8 bits).`,
    });
    return false;
  }
  return !fault;
}

function bufferIndices(w: Walk, li: ProtoLayerInfo | undefined, where: string): void {
  if (!nnStreamConfig(w, li, where)) return; // HailoRT stops at the stream config, before the indices
  const count = li?.edge_layer_base?.buffer_indices?.length ?? 0;
  if (count === 0) {
    add(w, {
      code: 'hef/no-buffer-indices',
      crash: true,
      message: `${where} '${String(li?.name ?? '')}' has no buffer_indices: libhailort reads its first entry without checking (hef.cpp asserts exactly one; release builds drop the assert) and the process crashes (SIGSEGV) in Hef::create.`,
    });
  }
}

function muxIndices(w: Walk, mux: ProtoLayerMux | undefined, where: string): void {
  bufferIndices(w, mux, where);
  for (const p of mux?.predecessors ?? []) {
    if (p.layer_mux) muxIndices(w, p.layer_mux, `${where} predecessor`);
    else bufferIndices(w, p.layer_info, `${where} predecessor`);
  }
}

function edgeLayers(w: Walk, edges: ProtoEdgeLayer[] | undefined, where: string): void {
  for (const el of edges ?? []) {
    const connection = Number(el.context_switch_info?.edge_connection_type ?? 0);
    if (connection === 0) {
      const kind = Number(el.edge_layer_type ?? 0);
      if (kind === 0) bufferIndices(w, el.layer_info, `${where}: boundary edge layer`);
      else if (kind === 1) muxIndices(w, el.layer_mux, `${where}: boundary mux edge layer`);
      else if (kind === 2) for (const p of el.layer_planes?.planes ?? []) bufferIndices(w, p.layer_info, `${where}: boundary plane`);
    } else if (connection === 1) {
      if (Number(el.edge_layer_type ?? 0) !== 0) {
        add(w, { code: 'hef/structure', status: 26, message: `Inter-context layer can't be mux (${where}, '${String(el.layer_info?.name ?? '')}').` });
      } else if (!nnStreamConfig(w, el.layer_info, `${where}: intermediate edge`)) {
        // refused at its stream config
      } else if ((el.context_switch_info?.connected_contexts ?? []).length === 0) {
        add(w, {
          code: 'hef/no-connected-context',
          status: 26,
          message: `Inter context layer info must contain connected_context: ${where}, intermediate edge '${String(el.layer_info?.name ?? '')}' names none.`,
        });
      }
    } else if (connection > 3) {
      add(w, { code: 'hef/structure', status: 26, message: `Unsupported edge connection type given ${connection} (${where}).` });
    }
  }
}

function coreOp(w: Walk, core: ProtoNetworkGroup, group: string): void {
  operations(w, core.preliminary_config?.operation, `network group '${group}': preliminary config`);
  (core.contexts ?? []).forEach((ctx, c) => {
    operations(w, ctx.operations, `network group '${group}': context ${c}`);
    edgeLayers(w, ctx.metadata?.edge_layers, `network group '${group}', context ${c}`);
  });
}

/** The core ops HailoRT builds metadata for (fill_core_ops / fill_networks_metadata). */
function coreOpsOf(ng: ProtoNetworkGroup, netFlow: boolean, multiLayout: boolean): ProtoNetworkGroup[] {
  if (netFlow) {
    const op = (ng.ops ?? []).find((o) => has(o as Msg, 'core_op'));
    const core = op?.core_op;
    if (!core) return [];
    if (multiLayout) return partialCores(core);
    return [core];
  }
  if (multiLayout) return (ng.partial_network_groups ?? []).map((p) => p.network_group ?? {});
  return [ng];
}

const partialCores = (core: ProtoNetworkGroup): ProtoNetworkGroup[] => (core.partial_core_ops ?? []).map((p) => p.core_op ?? {});

const MULTI_LAYOUT_SOURCE = 'hef.cpp of every release 4.18.0 … 5.2.0';

/**
 * A multi-layout architecture (hw_arch 3 HAILO8L, 4 HAILO15M) keeps its contexts in partial core
 * ops, one per cluster layout. HailoRT builds metadata only from those (fill_networks_metadata):
 * with none in the first network group the map stays empty and CoreOpMetadataPerArch::get_metadata
 * reads its first entry anyway (the assert is compiled out) — SIGSEGV in Hef::create. Every lookup
 * by name reads `partial_network_groups[0]` (get_network_group_and_network_name,
 * get_network_groups_names), net-flow files included, so a group without it crashes on first use.
 * Net-flow files find the group's post-process ops under the partial core op's name (map::at: a
 * name that differs throws std::out_of_range, uncaught — SIGABRT).
 */
function multiLayoutFaults(w: Walk, ng: ProtoNetworkGroup, index: number, group: string, netFlow: boolean, arch: string): boolean {
  const legacyPartials = ng.partial_network_groups ?? [];
  if (netFlow) {
    const core = (ng.ops ?? []).find((o) => has(o as Msg, 'core_op'))?.core_op;
    const partials = core?.partial_core_ops ?? [];
    if (core && !partials.length && index === 0) {
      add(w, {
        code: 'hef/no-partial-core-ops',
        crash: true,
        message: `Network group '${group}' of this ${arch} HEF has no partial core ops (core_op.partial_core_ops, one per cluster layout): libhailort builds no metadata for it and then reads the first entry of the empty map (CoreOpMetadataPerArch::get_metadata; the assert is compiled out), so the process crashes (SIGSEGV) in Hef::create (${MULTI_LAYOUT_SOURCE}).`,
      });
      return false;
    }
    const lookupName = String((legacyPartials[0]?.network_group ?? ng).network_group_metadata?.network_group_name ?? '');
    if (partials.length && !partials.some((p) => String(p.core_op?.network_group_metadata?.network_group_name ?? '') === lookupName)) {
      add(w, {
        code: 'hef/partial-name',
        crash: true,
        message: `Network group '${group}' of this ${arch} HEF names its partial core ops differently from the group ('${lookupName}'): libhailort files the post-process ops under the partial's name and then looks them up under the group's (std::map::at throws std::out_of_range, which nothing catches), so the process aborts (SIGABRT) in Hef::create (${MULTI_LAYOUT_SOURCE}).`,
      });
      return false;
    }
    if (!legacyPartials.length) {
      add(w, {
        code: 'hef/no-partial-network-groups',
        crash: true,
        message: `Network group '${group}' of this ${arch} HEF has no partial_network_groups: Hef::create succeeds, but every lookup of a network group or its vstreams by name (get_network_group_and_network_name, get_network_groups_names — the first thing a run or InferModel does) reads element 0 of the empty list, and the process crashes (SIGSEGV) (${MULTI_LAYOUT_SOURCE}).`,
      });
      return false;
    }
    return true;
  }
  if (!legacyPartials.length) {
    add(w, {
      code: 'hef/no-partial-core-ops',
      crash: true,
      message:
        index === 0
          ? `Network group '${group}' of this ${arch} HEF has no partial_network_groups (one per cluster layout): libhailort builds no metadata for it and then reads the first entry of the empty map (CoreOpMetadataPerArch::get_metadata; the assert is compiled out), so the process crashes (SIGSEGV) in Hef::create (${MULTI_LAYOUT_SOURCE}).`
          : `Network group '${group}' of this ${arch} HEF has no partial_network_groups: every lookup of it by name reads element 0 of the empty list (get_network_groups_names, get_network_group_and_network_name) and the process crashes (SIGSEGV) (${MULTI_LAYOUT_SOURCE}).`,
    });
    return false;
  }
  return true;
}

/**
 * Appends the structural findings (status or crash per finding, in HailoRT's order) for every
 * network group of the decoded body.
 */
export function structureProblems(hef: Msg, containerVersion: number, archId: number, netFlow: boolean, problems: HefProblem[]): void {
  const w: Walk = { problems, containerVersion, count: 0 };
  const multiLayout = MULTI_LAYOUT_ARCHS.has(archId);
  const arch = archId === 3 ? 'Hailo-8L' : 'Hailo-15M';
  (asHef(hef).network_groups ?? []).forEach((ng, i) => {
    const name = String(ng.network_group_metadata?.network_group_name ?? '') || `network_groups[${i}]`;
    for (const core of coreOpsOf(ng, netFlow, multiLayout)) coreOp(w, core, name);
    if (multiLayout) multiLayoutFaults(w, ng, i, name, netFlow, arch);
  });
  if (w.count > MAX_FINDINGS) {
    problems.push({
      code: 'hef/structure',
      severity: 'info',
      area: 'compat',
      message: `${w.count - MAX_FINDINGS} more structural findings of the same kinds are not listed.`,
    });
  }
}
