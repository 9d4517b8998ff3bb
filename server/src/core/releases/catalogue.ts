// The HailoRT and Dataflow Compiler releases hailo-tools knows, as data: each release's rules with the
// evidence for them. A rule holds from its release on, until a later entry changes it (judge.ts reads
// a release as the newest entry of its line at or before it, plus what newer entries are known to
// change). Sources: the tags of github.com/hailo-ai/hailort (v4.18.0 … v5.2.0, read file by file in
// server/src/core/hef/verdict.ts and server/src/core/device/hailortVersions.ts) and, past 5.2.0,
// the public records that docs/research/hailo-users.md#releases collects.

export type Product = 'hailort' | 'dfc';

/** What a rule is about: every place in the product where releases matter reads one of these. */
export type Topic = 'hef' | 'device' | 'genai' | 'driver' | 'packages' | 'compile';

export interface ReleaseRule {
  topic: Topic;
  /** One sentence, as a user reads it. */
  text: string;
  /** Where it is on record (a public URL, a tag, or a file in this repository). */
  evidence: string;
  /** For code that asks whether a rule holds in a release (releaseHas). */
  key?: RuleKey;
}

export type RuleKey =
  | 'device-node-h1x'
  | 'driver-hailo1x'
  | 'genai-read-all-timeout'
  | 'genai-temperature-above-zero'
  | 'genai-save-context-python'
  | 'genai-one-per-device'
  | 'hef-dfc-3.34'
  | 'firmware-reset-after-upgrade'
  | 'compile-8-family-only'
  | 'compile-1x-family-only';

export interface Release {
  product: Product;
  /** X.Y.Z, the first release the rules hold in. */
  version: string;
  /** Read from the public source tag (HailoRT ≤ 5.2.0); otherwise known only from the public records cited. */
  fromSource?: boolean;
  rules: readonly ReleaseRule[];
}

const HAILORT_TAG = (v: string) => `github.com/hailo-ai/hailort tag v${v}`;

/** HailoRT, oldest first. Hef::create's own per-release checks are verdict.ts' rulesOf (same tags). */
export const HAILORT_RELEASES: readonly Release[] = [
  {
    product: 'hailort',
    version: '4.18.0',
    fromSource: true,
    rules: [
      {
        topic: 'hef',
        text: 'reads HEF header versions 0 and 1; refused HEFs get 26 HAILO_INVALID_HEF',
        evidence: `${HAILORT_TAG('4.18.0')}: hailort/libhailort/src/hef/hef.cpp`,
      },
      {
        topic: 'driver',
        text: 'kernel module hailo_pci, device node /dev/hailo0',
        evidence: 'github.com/hailo-ai/hailort-drivers tag v4.18.0: linux/pcie/Makefile',
      },
      {
        topic: 'packages',
        text: 'packages hailort, hailort-pcie-driver, python3-hailort / hailort wheel',
        evidence: 'github.com/hailo-ai/hailo-apps (25.x install scripts)',
      },
    ],
  },
  {
    product: 'hailort',
    version: '4.19.0',
    fromSource: true,
    rules: [{ topic: 'hef', text: 'parses the debug action; refuses legacy host argmax', evidence: `${HAILORT_TAG('4.19.0')}: hef.cpp parse_action` }],
  },
  {
    product: 'hailort',
    version: '4.20.0',
    fromSource: true,
    rules: [{ topic: 'hef', text: 'reads HEF header version 2 (XXH3)', evidence: `${HAILORT_TAG('4.20.0')}: hef.cpp calc_hef_residue_size` }],
  },
  {
    product: 'hailort',
    version: '4.21.0',
    fromSource: true,
    rules: [
      {
        topic: 'hef',
        text: 'reads HEF header version 3 (DFC 5.x); statuses 91/92/93; refuses HEFs without PERIPH_CALCULATION_IN_HAILORT',
        evidence: `${HAILORT_TAG('4.21.0')}: hef.cpp, hef_internal.hpp, hailort.h`,
      },
    ],
  },
  {
    product: 'hailort',
    version: '4.22.0',
    fromSource: true,
    rules: [
      {
        topic: 'device',
        text: 'refuses Hailo-10/15 devices (79: "Hailo1X Devices are only supported in versions 5.0.0 and above")',
        evidence: `${HAILORT_TAG('4.22.0')}: vdma/pcie/pcie_device.cpp`,
      },
    ],
  },
  {
    product: 'hailort',
    version: '4.23.0',
    fromSource: true,
    rules: [
      {
        topic: 'hef',
        text: 'crashes (SIGSEGV) on a V3 HEF whose input layer has empty per-feature quantisation lists',
        evidence: 'docs/releases.md#checked-against-the-real-libraries (a real libhailort 4.23.0)',
      },
    ],
  },
  {
    product: 'hailort',
    version: '4.24.0',
    rules: [
      {
        topic: 'hef',
        text: 'loads HEFs from DFC 3.34, which older 4.x refuse (HAILO_INVALID_HEF)',
        key: 'hef-dfc-3.34',
        evidence:
          'public deploy note "HEF 컴파일 DFC 3.34 / HailoRT 4.24 … Pi < 4.24 (apt default 4.23) → HEF load failure (HAILO_INVALID_HEF)", docs/research/hailo-users.md#which-hef-runs-where row 4',
      },
      {
        topic: 'packages',
        text: 'hailort-pcie-driver_4.24.0_all.deb: the Hailo-8/8L line (hailo8 branch) goes on',
        evidence: 'docs/research/hailo-users.md#releases (HailoRT 4.24.0)',
      },
    ],
  },
  {
    product: 'hailort',
    version: '5.0.0',
    fromSource: true,
    rules: [
      {
        topic: 'device',
        text: 'refuses Hailo-8 devices (79: "Hailo8 devices are only supported in versions 4.x.x and earlier")',
        evidence: `${HAILORT_TAG('5.0.0')}: vdma/pcie/pcie_device.cpp`,
      },
      {
        topic: 'hef',
        text: 'takes an empty per-feature list as the single value; knows STRICT_RUNTIME_VERSIONING (35)',
        evidence: `${HAILORT_TAG('5.0.0')}: hef.cpp fill_layer_info, hef_internal.hpp`,
      },
    ],
  },
  {
    product: 'hailort',
    version: '5.0.1',
    fromSource: true,
    rules: [
      {
        topic: 'driver',
        text: 'kernel module hailo1x_pci (Hailo-10H/15), device node /dev/hailo0',
        key: 'driver-hailo1x',
        evidence: 'github.com/hailo-ai/hailort-drivers master: linux/pcie/Makefile',
      },
      {
        topic: 'packages',
        text: 'Raspberry Pi OS packages h10-hailort, python3-h10-hailort, h10-hailort-pcie-driver',
        evidence: 'hailo-apps#106 ("System package h10-hailort is not installed")',
      },
    ],
  },
  {
    product: 'hailort',
    version: '5.1.0',
    fromSource: true,
    rules: [{ topic: 'hef', text: 'checks only the protobuf body hash of a V3 HEF that carries one', evidence: `${HAILORT_TAG('5.1.0')}: hef.cpp` }],
  },
  {
    product: 'hailort',
    version: '5.1.1',
    fromSource: true,
    rules: [
      {
        topic: 'genai',
        text: 'LLM/VLM context usage and save/load of the KV context in the C++ API',
        evidence: `${HAILORT_TAG('5.1.1')}: hailort/libhailort/include/hailo/genai/llm/llm.hpp`,
      },
    ],
  },
  {
    product: 'hailort',
    version: '5.2.0',
    fromSource: true,
    rules: [
      {
        topic: 'hef',
        text: 'the newest public source; its Hef::create answers were checked on every corpus HEF',
        evidence: 'docs/releases.md#checked-against-the-real-libraries (a real libhailort 5.2.0)',
      },
    ],
  },
  {
    product: 'hailort',
    version: '5.3.0',
    rules: [
      {
        topic: 'hef',
        text: 'HEFs from 5.2 load',
        evidence: 'public 5.2→5.3 migration note (YOLOv8n, CLIP, Qwen2.5-1.5B, Qwen2-VL-2B, Whisper-Base), docs/research/hailo-users.md#releases',
      },
      {
        topic: 'driver',
        text: 'device node /dev/h1x-0 (was /dev/hailo0) under hailo1x_pci',
        key: 'device-node-h1x',
        evidence: 'community.hailo.ai/t/19218; home-assistant/operating-system PR#4690 (hailo10h-pci 5.3.0)',
      },
      {
        topic: 'genai',
        text: 'the Python LLM.read_all() needs an explicit timeout (the shim always reads with one: native/hailo_genai.cpp read_pending)',
        evidence: 'public 5.2→5.3 migration note (diff of tags v5.2.0..v5.3.0), docs/research/hailo-users.md#releases',
        key: 'genai-read-all-timeout',
      },
      {
        topic: 'genai',
        text: 'the Python LLM.generate rejects temperature 0 with HAILO_INVALID_ARGUMENT (the C++ generator params have refused it since 5.0: llm.cpp validate; the chat refuses it first in one sentence)',
        evidence: 'public 5.2→5.3 migration note, docs/research/hailo-users.md#releases',
        key: 'genai-temperature-above-zero',
      },
      {
        topic: 'genai',
        text: 'VLM::generate_from_embeddings; InferModel::set_nms_classes_filter_mask',
        evidence: 'public 5.2→5.3 migration note, docs/research/hailo-users.md#releases',
      },
      {
        topic: 'device',
        text: 'Hailo-8 camera/ISP/firmware-update APIs removed from device.hpp',
        evidence: 'public 5.2→5.3 migration note, docs/research/hailo-users.md#releases',
      },
      {
        topic: 'driver',
        text: 'after a live upgrade the host driver can be 5.3.0 while the device firmware stays older: a PCI reset (or reboot) reloads it',
        key: 'firmware-reset-after-upgrade',
        evidence: 'github.com/hailo-ai/hailo_model_zoo_genai PR#11',
      },
    ],
  },
  {
    product: 'hailort',
    version: '5.4.0',
    rules: [
      {
        topic: 'genai',
        text: 'LLM/VLM save_context()/load_context() in Python too',
        key: 'genai-save-context-python',
        evidence: 'hailo_model_zoo_genai README at HailoRT 5.4.0; public code citing hailort v5.4.0 pyhailort.py',
      },
      {
        topic: 'genai',
        text: 'one LLM or VLM per device: a second is not supported',
        key: 'genai-one-per-device',
        evidence:
          'public code citing the Hailo GenAI docs ("multiple LLM or VLM models on one device are not supported"), docs/research/hailo-users.md#which-hef-runs-where row 5',
      },
    ],
  },
];

/** Dataflow Compiler lines: 3.x builds the Hailo-8 family, 5.x the Hailo-10/15 family. */
export const DFC_RELEASES: readonly Release[] = [
  {
    product: 'dfc',
    version: '3.27.0',
    rules: [
      {
        topic: 'compile',
        text: 'builds hailo8, hailo8l, hailo8r (and hailo15h/hailo10h before the 5.x split)',
        evidence: 'github.com/hailo-ai/hailo_model_zoo v2.x (hw-arch choices)',
      },
    ],
  },
  {
    product: 'dfc',
    version: '3.34.0',
    rules: [
      {
        topic: 'compile',
        text: 'builds Hailo-8/8L only and refuses hailo10h ("Please use Dataflow Compiler v5.x")',
        key: 'compile-8-family-only',
        evidence: 'public notes (P15: "3.34.0 rejects hailo10h"), docs/research/hailo-users.md#releases',
      },
      { topic: 'hef', text: 'its HEFs need HailoRT 4.24', evidence: 'public deploy note, docs/research/hailo-users.md#which-hef-runs-where row 4' },
    ],
  },
  {
    product: 'dfc',
    version: '5.0.0',
    rules: [{ topic: 'compile', text: 'builds Hailo-10H/15 (header version 3)', evidence: 'github.com/hailo-ai/hailo_model_zoo v5.x' }],
  },
  { product: 'dfc', version: '5.3.0', rules: [{ topic: 'compile', text: 'hailo_ai_sw_suite_2026-04 image', evidence: 'community.hailo.ai/t/19530' }] },
  {
    product: 'dfc',
    version: '5.4.0',
    rules: [
      {
        topic: 'compile',
        text: 'builds Hailo-10H/15 only and refuses hailo8/hailo8l; needs Python 3.10',
        key: 'compile-1x-family-only',
        evidence: 'public notes (P15: "5.4.0 rejects hailo8l"), docs/research/hailo-users.md#releases',
      },
    ],
  },
];

/** Hailo AI Software Suite images and the DFC each carries (the suite names are dates, not versions). */
export const DFC_SUITES: readonly { image: string; dfc: string; evidence: string }[] = [
  { image: 'hailo8_ai_sw_suite_2025-10', dfc: '3.33.0', evidence: 'docs/research/dfc-flow.md#images' },
  {
    image: 'hailo8_ai_sw_suite_2026-07',
    dfc: '3.34.0',
    evidence: 'public SW-suite list (DFC 3.34.0 / MZ 2.19.0 / HailoRT 4.24.0), docs/research/hailo-users.md#releases',
  },
  { image: 'hailo_ai_sw_suite_2026-04', dfc: '5.3.0', evidence: 'community.hailo.ai/t/19530 (hailo_ai_sw_suite_2026-04:1, DFC 5.3.0)' },
  {
    image: 'hailo_ai_sw_suite_2026-08',
    dfc: '5.4.0',
    evidence: 'public SW-suite list (DFC 5.4.0 / MZ 5.4.0 / HailoRT 5.4.0), docs/research/hailo-users.md#releases',
  },
];
