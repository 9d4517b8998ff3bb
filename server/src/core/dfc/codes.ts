// Every diagnostic code the log reader emits, with the evidence behind its explanation. The table
// is rendered into docs/dfc-log.md's code list by a test that keeps the two equal.
import type { Confidence, DfcSeverity, StageName } from './types';

export interface CodeInfo {
  severity: DfcSeverity;
  /** The stage the error belongs to when the log does not say otherwise. */
  stage: StageName | 'docker' | null;
  confidence: Confidence;
  /** One line: where the explanation comes from. */
  evidence: string;
}

export const DFC_CODES = {
  'dfc/model-script-syntax': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'high',
    evidence: "the DFC script parser echoes the line with `>!<` and pyparsing's `(line:L, col:C)` (dfc-flow.md §7.3; pyparsing ParseBaseException)",
  },
  'dfc/model-script': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'high',
    evidence:
      "AllocatorScriptParserException messages and the script parser's class-less lines (`No argument named …`, `Both config path and config arguments were given`, `Cannot infer bbox conv layers automatically`) from public hailomz/hailo runs (SOURCES.md)",
  },
  'dfc/unsupported-shuffle': {
    severity: 'error',
    stage: 'parse',
    confidence: 'high',
    evidence: 'UnsupportedShuffleLayerError … Failed to determine type of layer to create in node (dfc-flow.md §3.5; fast-plate-ocr#44)',
  },
  'dfc/unsupported-softmax': {
    severity: 'error',
    stage: 'parse',
    confidence: 'high',
    evidence: 'UnsupportedSoftmaxLayerError on a hand-built 4D attention block (dfc-flow.md §3.5, §4.1)',
  },
  'dfc/unsupported-concat': {
    severity: 'error',
    stage: 'parse',
    confidence: 'high',
    evidence: 'UnsupportedConcatLayerError … Unsupported concat over axis batch from Tile in windowed attention; num_windows=1 parses (dfc-flow.md §3.5, §4.2)',
  },
  'dfc/unexpected-node': {
    severity: 'error',
    stage: 'parse',
    confidence: 'high',
    evidence: 'UnexpectedNodeError on Expand (.expand lowers to Expand + ConstantOfShape/Equal/Where) (dfc-flow.md §3.5)',
  },
  'dfc/unsupported-operation': {
    severity: 'error',
    stage: 'parse',
    confidence: 'high',
    evidence: 'UnsupportedOperationError … X operation is unsupported (public parser outputs, SOURCES.md)',
  },
  'dfc/unsupported-layer': {
    severity: 'error',
    stage: 'parse',
    confidence: 'high',
    evidence: 'Unsupported…LayerError in op NODE: reason (public parser outputs, SOURCES.md)',
  },
  'dfc/parser-prompt': {
    severity: 'error',
    stage: 'parse',
    confidence: 'high',
    evidence:
      "the `hailo parser` asks `Would you like to parse again with the recommendation? (y/n)` on stdin (fast-plate-ocr#44); with no stdin Python's input() raises `EOFError: EOF when reading a line`",
  },
  'dfc/end-nodes-changed': {
    severity: 'warning',
    stage: 'parse',
    confidence: 'high',
    evidence:
      '`According to recommendations, retrying parsing with end node names: [...]` followed by `End nodes mapped from original model:` those nodes — the parsed model ends there (public hailomz log, SOURCES.md)',
  },
  'dfc/misspelled-node': {
    severity: 'error',
    stage: 'parse',
    confidence: 'high',
    evidence: 'MisspellNodeError: Unable to find end node name — start/end_node_names take NodeProto names, not tensor names (dfc-flow.md §3.5)',
  },
  'dfc/end-node-absorbed': {
    severity: 'error',
    stage: 'parse',
    confidence: 'medium',
    evidence: 'InvalidHNError: node name Y in end_node_names is missing in the HN — reshape-like ops are absorbed into neighbours (dfc-flow.md §3.5)',
  },
  'dfc/concat-format': {
    severity: 'error',
    stage: 'parse',
    confidence: 'medium',
    evidence:
      'IndexError in get_concat_info on the raw Qwen3-VL tower: Concat vertices of rank-1 shape plumbing; onnxsim at a fixed shape folds them (dfc-flow.md §3.5, §4.1)',
  },
  'dfc/axes-format': {
    severity: 'error',
    stage: 'parse',
    confidence: 'medium',
    evidence:
      'IndexError in _convert_axes_to_nhwc (onnx_graph.py, input_format[axis]); its LayerNormalization top frame is a symptom — the recorded causes were elsewhere (dfc-flow.md §3.5, §4.2)',
  },
  'dfc/reshape-format': {
    severity: 'error',
    stage: 'parse',
    confidence: 'medium',
    evidence:
      'ValueError: channels is not in list (update_reshape_output_format) — a Reshape got a tensor whose format the tracker cannot map to NCHW (dfc-flow.md §3.5)',
  },
  'dfc/broadcast': {
    severity: 'error',
    stage: 'parse',
    confidence: 'medium',
    evidence: 'operands could not be broadcast together — implicit rank-3 broadcasting (dfc-flow.md §3.5)',
  },
  'dfc/gpu-memory': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'high',
    evidence: 'AccelerasResourceError: GPU memory has been exhausted during Quantization-Aware Fine-Tuning (dfc-flow.md §3.4)',
  },
  'dfc/memory-killed': {
    severity: 'error',
    stage: null,
    confidence: 'medium',
    evidence: "exit 137 = SIGKILL; Statistics Collector was SIGKILLed at Docker's 30.26 GiB, a backbone peaked at 39.87 GiB (dfc-flow.md §3.1)",
  },
  'dfc/interrupted': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      'KeyboardInterrupt is raised when the user hits the interrupt key, Ctrl-C (https://docs.python.org/3/library/exceptions.html#KeyboardInterrupt); a shell reports a command a fatal signal N ended as 128+N: 130 SIGINT, 143 SIGTERM (https://www.gnu.org/software/bash/manual/bash.html#Exit-Status)',
  },
  'dfc/stopped': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      'the caller stopped the run itself and says so (a cancel: info; its deadline: error): it removes the container with `docker rm --force`, which kills it with SIGKILL, exit 137 — the status a memory kill leaves too, so only the caller can tell them apart (https://docs.docker.com/reference/cli/docker/container/rm/)',
  },
  'dfc/wraparound-a16w4': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'high',
    evidence: "AttributeError: 'function' object has no attribute 'set_wraparound_loss' with precision_mode=a16_w4 — a DFC bug (dfc-flow.md §3.5)",
  },
  'dfc/quantization-failed': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'high',
    evidence:
      "NegativeSlopeExponentNonFixable: Quantization failed in layer L due to unsupported required slope — the DFC's message names the causes (random or unnormalized calibration set, random weights, no batch normalization); users' records: synthetic frames refused, real frames cleared it (dfc-corpus tune2/37; SOURCES in dfcMessages.ts)",
  },
  'dfc/nan-params': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'high',
    evidence: 'BackendValueError: Unsupported NaN values were found in params — the model parameters contain NaN (hailo_model_zoo#136)',
  },
  'dfc/system-requirements': {
    severity: 'warning',
    stage: null,
    confidence: 'high',
    evidence:
      "the DFC's first-run system check (`The SDK requires 16 GB of RAM (32 GB recommended), while this system has only 9 GB`, `Unsupported release`): printed as [Error] lines, then `Continue? [Y/n]` — and the command ran (dfc-corpus tune2/25)",
  },
  'dfc/not-quantized': {
    severity: 'error',
    stage: 'compile',
    confidence: 'high',
    evidence: 'Model requires quantized weights in order to run on HW, but none were given (public compiler output, SOURCES.md)',
  },
  'dfc/optimize-inputs': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'medium',
    evidence:
      "KeyError on the HN's input layer name (`'net/input_layer1'`) / AccelerasValueError: Inference input shapes … for layer L does not match HN shapes — the data fed to the optimizer is keyed or shaped unlike the HN's inputs, or an optimizer rewrite changed the shapes (dfc-corpus unseen3/20, 21, 23)",
  },
  'dfc/calibration-shape': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'high',
    evidence: "BadInputsShape: Data shape … doesn't match network's input shape (public output; dfc-flow.md §3.4 for the NHWC layout)",
  },
  'dfc/allocation-failed': {
    severity: 'error',
    stage: 'compile',
    confidence: 'medium',
    evidence:
      'Mapping Failed / No successful assignments: LAYER errors: Agent infeasible / could not find a valid partition to contexts / Model uses too many reources: N Layer-Controllers / Context switch is disabled, but model could not fit in single context (public compiler outputs, SOURCES.md)',
  },
  'dfc/context-partition': {
    severity: 'error',
    stage: 'compile',
    confidence: 'medium',
    evidence:
      '`Context-Partition topology error: A (bucket_1) is in later context than its successor B (bucket_0)` — deterministic in the one public record; context_switch_param and compiler_optimization_level did not change it (SOURCES.md)',
  },
  'dfc/broken-install': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      "the dynamic loader's `symbol lookup error: …/hailo_tools/build/compiler: undefined symbol: …` — the DFC's own compiler binary cannot start (hailo_model_zoo#113)",
  },
  'dfc/compiler-bug': {
    severity: 'error',
    stage: 'compile',
    confidence: 'high',
    evidence:
      'an internal assertion of the compiler (`Assertion … failed`, `Compilation failed with unexpected crash`) — not caused by anything the input can say (SOURCES.md)',
  },
  'dfc/docker': {
    severity: 'error',
    stage: 'docker',
    confidence: 'high',
    evidence: "docker's own refusal (`docker: Error response from daemon`, exit 125) before the DFC ran",
  },
  'dfc/optimization-level-0': {
    severity: 'warning',
    stage: 'optimize',
    confidence: 'high',
    evidence:
      "[warning] Reducing optimization level to 0 … because there's less data than the recommended amount (1024), and/or there's no available GPU (public hailomz outputs, SOURCES.md A; users' logs, dfc-corpus) — the default level only: an explicit level 1 ran its bias correction on the CPU (SOURCES.md AD)",
  },
  'dfc/calibration-range': {
    severity: 'info',
    stage: 'optimize',
    confidence: 'medium',
    evidence:
      'the calibration set seems to not be normalized; uniform [0,1) calibration gave 66.65 % error where standard normal gave 2.44 % (dfc-flow.md §3.4)',
  },
  'dfc/nms-layer-missing': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'high',
    evidence:
      "HailoNNException: The layer named conv63 doesn't exist in the HN — an NMS config naming another model's head layers; an empty name when the DFC's generated config found none (users' logs, dfc-corpus tune/07, tune/09)",
  },
  'dfc/version-mismatch': {
    severity: 'error',
    stage: 'optimize',
    confidence: 'medium',
    evidence: "ValueError: 'yolov8' is not a valid NMSMetaArchitectures — a model zoo newer than the DFC (hailo_model_zoo#86, the maintainer's question)",
  },
  'hailort/out-of-physical-devices': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      'HAILO_OUT_OF_PHYSICAL_DEVICES(74) / HAILO_DEVICE_IN_USE: HailoRT\'s "Failed to create vdevice. there are not enough free devices" — another VDevice holds the device (dfc-corpus tune/37); the GenAI server\'s "KV-Cache is already in use by another model!" (llm_server.cpp)',
  },
  'hailort/network-already-activated': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      '"Cant activate network because a network is already activated" HAILO_INVALID_OPERATION(6): one activated network group at a time (dfc-corpus tune/37)',
  },
  'hailort/hef-rejected': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      'HAILO_INVALID_HEF / HAILO_HEF_FILE_CORRUPTED / HAILO_HEF_NOT_SUPPORTED / HAILO_INVALID_HEF_USE / HAILO_OPEN_FILE_FAILURE / HAILO_FILE_OPERATION_FAILURE (hailort.h); what the real libhailort 5.2.0 answered for damaged HEFs (shared corpus hef/libhailort-5.2.0/mutants.tsv); hef.cpp\'s "non-compatible HEF with the following unsupported extensions" (hailo_model_zoo#29), file_utils.cpp\'s "Failed opening file, path:"',
  },
  'hailort/hef-device-mismatch': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      'HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE / HAILO_INVALID_DEVICE_ARCHITECTURE (hailort.h); device_internal.cpp\'s "HEF format is not compatible with device. Device arch: …" (an error) and "HEF was compiled for Hailo8L device, while the device itself is Hailo8" (a warning: it runs, slower)',
  },
  'hailort/version-mismatch': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      "HAILO_INVALID_DRIVER_VERSION / HAILO_DRIVER_INVALID_IOCTL / HAILO_DRIVER_INVALID_RESPONSE / HAILO_UNSUPPORTED_FW_VERSION / HAILO_INVALID_SERVICE_VERSION (hailort.h); hailort_driver.cpp's \"Driver version (X) is different from library version (Y)\" (viseron#1490: fixed by installing one release), hef.cpp's DFC-version check; pcie_device.cpp's device-family checks (Hailo-8 needs 4.x, Hailo-1X 5.x)",
  },
  'hailort/timeout': {
    severity: 'error',
    stage: null,
    confidence: 'medium',
    evidence:
      'HAILO_TIMEOUT / HAILO_DRIVER_TIMEOUT (hailort.h); pyhailort\'s HailoRTTimeout "Received a timeout - hailort has failed because a timeout had occurred"; D2H stream timeouts of a users\' log (dfc-corpus tune2/12)',
  },
  'hailort/driver': {
    severity: 'error',
    stage: null,
    confidence: 'medium',
    evidence:
      'HAILO_DRIVER_OPERATION_FAILED ("Read driver log for more info (dmesg for linux)") / HAILO_DRIVER_NOT_INSTALLED / HAILO_PCIE_NOT_SUPPORTED_ON_PLATFORM / HAILO_DEVICE_NOT_CONNECTED / HAILO_FW_CONTROL_FAILURE (hailort.h); buffer_requirements.cpp\'s "max_desc_page_size given N is bigger than hw max desc page size M" with the driver\'s probe lines (raspberrypi/firmware#1895)',
  },
  'hailort/connection-closed': {
    severity: 'error',
    stage: null,
    confidence: 'medium',
    evidence:
      'HAILO_COMMUNICATION_CLOSED ("The communication between endpoints is closed"; 62 was a stream abort before HailoRT 4.17) / HAILO_RPC_FAILED / HAILO_CONNECTION_REFUSED (hailort.h); hrpc/client.cpp\'s "Failed to send request, status = …"',
  },
  'hailort/status': {
    severity: 'error',
    stage: null,
    confidence: 'medium',
    evidence: "any other status of hailort.h's HAILO_STATUS_VARIABLES (v5.2.0), named or numbered, said with its meaning and the check that failed before it",
  },
  'dfc/no-error-in-log': {
    severity: 'error',
    stage: null,
    confidence: 'medium',
    evidence: 'a non-zero exit status (given by the caller or --exit-code) with no error line in the log: where the run stopped is known, the cause is not',
  },
  'dfc/usage': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      "the command's own argument parser refused its command line and nothing ran: Python argparse's `PROG: error: MESSAGE` after its usage (invalid choice, required or unrecognized arguments), click's `Error: No such option` (dfc-corpus unseen2/26), CLI11's (hailortcli's) message before `Run with --help for more information.` (unseen20/05)",
  },
  'dfc/not-installed': {
    severity: 'error',
    stage: null,
    confidence: 'high',
    evidence:
      "the shell or the package manager refused before any Hailo tool ran: the shell's `PROG: command not found` (in any locale: `コマンドが見つかりません`, dfc-corpus unseen4/16), apt's `E: Unable to locate package P` / `Version 'V' for 'P' was not found` (unseen4/10)",
  },
  'dfc/crashed': {
    severity: 'error',
    stage: null,
    confidence: 'medium',
    evidence:
      "a native program's death: libstdc++'s `terminate called after throwing an instance of 'T'` and `what():` (an uncaught C++ exception), the shell's `Aborted`/`Segmentation fault (core dumped)`, `Fatal Python error:` (dfc-corpus unseen2/05)",
  },
  'dfc/kernel-splat': {
    severity: 'warning',
    stage: null,
    confidence: 'medium',
    evidence:
      "the kernel's report of a fault in its code — `WARNING: CPU: N PID: N at file:line func+off/size`, `BUG:`, an Oops, a hung task, `Call trace:` and its `func+off/size [module]` frames (kernel/panic.c __warn, kernel/hung_task.c): where it went wrong, its top function and the module on its stack, not the run's failure (dfc-corpus unseen12/56, raspberrypi/linux#6765)",
  },
  'dfc/unrecognised-warning': {
    severity: 'warning',
    stage: null,
    confidence: 'low',
    evidence:
      "a warning a program's logger wrote that no catalogue entry knows, in a run with no error: said once per distinct message in its words, with how often it repeated and what it names (pyhailort's own log files, dfc-corpus unseen12/53–55; Python's `file.py:N: …Warning:` lines and glog/absl's `W` lines too)",
  },
  'dfc/unrecognised-error': {
    severity: 'error',
    stage: null,
    confidence: 'low',
    evidence: 'an error the reader has no explanation for; its log lines are quoted',
  },
} satisfies Record<string, CodeInfo>;

export type DfcCode = keyof typeof DFC_CODES;
