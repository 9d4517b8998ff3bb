// The HEF specs tests used to build inline (lsp, doctor, device, accuracy, hostile names, render,
// fuzz seeds, e2e hostile files): each test imports its spec from here, so the guard
// (allTestHefs.ts → test/unit/hef/hef-fixtures-load.test.ts) opens exactly the files the tests build.
// Specs a test then damages on purpose (hostile-hef's moved padding) are listed as their intact
// base; the damage is that test's subject.
import type { HefSpec, StreamSpec } from './hefBuilder';
import { EVIL } from './hostile';

type Shape = [number, number, number];
const classifierGroup = (inputShape: Shape = [8, 8, 3]) => ({
  name: 'n',
  inputs: [{ name: 'n/in', shape: inputShape }],
  outputs: [{ name: 'n/out', shape: [1, 1, 10] as Shape }],
});

/** A tiny V3 HEF compiled "for" `hwArch` (lsp/alls-arch, unit/hef/hef-hwarch, unit/har/script-target). */
export const archHefSpec = (hwArch: number): HefSpec => ({ version: 3, hwArch, networkGroups: [classifierGroup()] });

/** The hw_arch ids hef-hwarch builds (0-4, 6, 103). */
export const ARCH_HEF_IDS = [0, 1, 2, 3, 4, 6, 103];

const net = {
  name: 'net',
  inputs: [{ name: 'net/in', shape: [8, 8, 3] as Shape }],
  outputs: [{ name: 'net/out', shape: [1, 1, 10] as Shape }],
};

/** A V2 classifier of DFC 3.31 for `hwArch` (doctor: hailo8l; device-arch-check: hailo8 and hailo8l). */
export const classifierV2Spec = (hwArch: number): HefSpec => ({ version: 2, hwArch, sdk: [3, 31, 0], networkGroups: [net] });

export const H8L_RESOURCE_TEXT = '{"model": "hailo8l-classifier", "labels": 10}';
/** A V3 hailo8l HEF embedding a resource (device-hailort4: 4.23 returns it from get_external_resources). */
export const h8lResourceSpec = (): HefSpec => ({
  version: 3,
  hwArch: 3,
  sdk: [3, 33, 0],
  networkGroups: [net],
  resources: [{ name: 'labels.json', data: new TextEncoder().encode(H8L_RESOURCE_TEXT) }],
});

export const TINYCNN_ZP = 128;
export const TINYCNN_SCALE = 0.05;
/** accuracy-device's classifier: one FLOAT-quantised output whose values are (q − 128) × 0.05. */
export const tinycnnSpec = (): HefSpec => ({
  version: 3,
  hwArch: 103,
  sdk: [5, 4, 0],
  ccwsSize: 256,
  networkGroups: [
    {
      name: 'tinycnn',
      inputs: [{ name: 'tinycnn/input_layer1', shape: [64, 64, 3], zp: 0, scale: 1 }],
      outputs: [{ name: 'tinycnn/fc1', shape: [1, 1, 10], format: 2, zp: TINYCNN_ZP, scale: TINYCNN_SCALE }],
    },
  ],
});

/** hostile-names: a network group named with a terminal escape, an input with a C1 control. */
export const ansiNamesHefSpec = (): HefSpec => {
  const ng = `net${EVIL.ansi}`;
  return {
    version: 3,
    hwArch: 103,
    networkGroups: [{ name: ng, inputs: [{ name: `${ng}/in\u009b6n`, shape: [8, 8, 3] }], outputs: [{ name: `${ng}/out`, shape: [4, 4, 8] }] }],
  };
};

/** hef-render: vstream, group and resource names that are HTML. */
export const htmlNamesHefSpec = (evil: string): HefSpec => ({
  networkGroups: [
    {
      name: `net${evil}`,
      inputs: [{ name: evil, shape: [8, 8, 3] }],
      outputs: [
        { name: `out/"quoted'`, shape: [1, 1, 4], format: 2 },
        { name: `out/</script><script>alert(2)</script>`, shape: [1, 1, 4], format: 2 },
      ],
    },
  ],
  resources: [
    { name: `cfg${evil}`, data: new TextEncoder().encode('x') },
    { name: 'hailo-config.json', data: new TextEncoder().encode(JSON.stringify({ patch_size: evil })) },
  ],
});

/** hostile-hef and lsp/hostile-folder: the intact V3 file whose hef_padding_size they then move. */
export const paddedV3Spec = (input = 'net/input_layer1', output = 'net/conv1'): HefSpec => ({
  version: 3,
  hwArch: 103,
  ccwsSize: 8192,
  networkGroups: [{ name: 'net', inputs: [{ name: input, shape: [8, 8, 3] }], outputs: [{ name: output, shape: [4, 4, 8] }] }],
});

/** fuzz: a seed with 60 outputs and hostile names. */
export const manyOutputsHefSpec = (): HefSpec => {
  const outputs: StreamSpec[] = Array.from({ length: 60 }, (_, i) => ({ name: `net/out${i}`, shape: [1, 1, 8] }));
  return { version: 3, hwArch: 103, networkGroups: [{ name: `net${EVIL.ansi}`, inputs: [{ name: `net/${EVIL.html}`, shape: [8, 8, 3] }], outputs }] };
};

/**
 * device-run-gate, run-gate-agreement: a classifier whose `direction` frame (uint8, all its streams)
 * is exactly 128 MiB (a 4096×4096×8 stream, LIMITS.deviceFrameBytes) plus a second stream of `extra` bytes.
 */
export const largeFrameHefSpec = (direction: 'input' | 'output', extra: number): HefSpec => {
  const streams = (p: string): StreamSpec[] => [
    { name: `n/${p}`, shape: [4096, 4096, 8] },
    ...(extra > 0 ? [{ name: `n/${p}_extra`, shape: [1, 1, extra] as Shape }] : []),
  ];
  const small = (p: string): StreamSpec[] => [{ name: `n/${p}`, shape: [8, 8, 3] }];
  const io = direction === 'input' ? { inputs: streams('in'), outputs: small('out') } : { inputs: small('in'), outputs: streams('out') };
  return { version: 3, hwArch: 103, networkGroups: [{ name: 'n', ...io }] };
};

/** Every inline spec above, named for the guard (hef-fixtures-load). */
export function inlineHefSpecs(): { name: string; spec: HefSpec }[] {
  return [
    ...ARCH_HEF_IDS.map((id) => ({ name: `inline archHefSpec(${id}) (lsp/alls-arch, hef-hwarch, script-target)`, spec: archHefSpec(id) })),
    ...[1, 3].map((id) => ({ name: `inline classifierV2Spec(${id}) (doctor, device-run-gate)`, spec: classifierV2Spec(id) })),
    { name: 'inline h8lResourceSpec (device-hailort4)', spec: h8lResourceSpec() },
    { name: 'inline tinycnnSpec (accuracy-device)', spec: tinycnnSpec() },
    { name: 'inline ansiNamesHefSpec (hostile-names)', spec: ansiNamesHefSpec() },
    { name: 'inline htmlNamesHefSpec (hef-render)', spec: htmlNamesHefSpec('<img src=x onerror=alert(1)>') },
    { name: 'inline paddedV3Spec (hostile-hef)', spec: paddedV3Spec() },
    { name: 'inline paddedV3Spec net/in (lsp/hostile-folder)', spec: paddedV3Spec('net/in', 'net/out') },
    { name: 'inline manyOutputsHefSpec (fuzz seed)', spec: manyOutputsHefSpec() },
    ...(['input', 'output'] as const).flatMap((d) =>
      [0, 10].map((extra) => ({ name: `inline largeFrameHefSpec(${d}, ${extra}) (device-run-gate, run-gate-agreement)`, spec: largeFrameHefSpec(d, extra) })),
    ),
  ];
}
