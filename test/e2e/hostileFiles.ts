// Builds, at e2e run time, valid model files whose names are HTML/script/markdown payloads: a HEF
// (with the HEF team's test builder, test/helpers/hefBuilder.ts) and an ONNX model (onnx-proto).
// The HEF inspector and the ONNX graph view must show these names as text: ui/hef.ui.ts and
// ui/onnx.ui.ts look for injected elements, live links and the literal strings.
// Nothing generated is committed; the driver writes the files into the temp workspace.
import { writeFileSync } from 'node:fs';
import { onnx } from 'onnx-proto';
import { buildHef, utf8, type HefSpec } from '../helpers/hefBuilder';
import { hostileDocument, rbBatchedDocument } from '../helpers/runFixtures';

export const HOSTILE = {
  networkGroup: '<img src=x onerror="window.__hailoPwned=1">',
  input: '<svg onload="window.__hailoPwned=2"></svg>',
  output: '"><b data-injected=1>bold</b><script>window.__hailoPwned=3</script>',
  resource: "<iframe srcdoc='x' data-injected=1>",
};

/** The hostile HEF's spec (exported so the guard, test/helpers/allTestHefs.ts, opens the same file). */
export function hostileHefSpec(): HefSpec {
  const ng = HOSTILE.networkGroup;
  return {
    version: 3,
    hwArch: 103,
    ccwsSize: 256,
    networkGroups: [
      {
        name: ng,
        networksNames: [`${ng}/${ng}`],
        inputs: [{ name: `${ng}/${HOSTILE.input}`, shape: [32, 32, 3], format: 1 }],
        outputs: [{ name: `${ng}/${HOSTILE.output}`, shape: [4, 4, 8], format: 1, zp: 1, scale: 0.5 }],
      },
    ],
    resources: [{ name: HOSTILE.resource, data: utf8(`{"note": "${HOSTILE.output.replace(/"/g, '\\"')}"}`) }],
  };
}

export async function writeHostileHef(file: string): Promise<void> {
  writeFileSync(file, await buildHef(hostileHefSpec()));
}

/**
 * A Hailo-8L HEF (hw_arch 3) whose file name is HTML, for Check Setup: under the fake HailoRT 5.2.0
 * the doctor warns that HailoRT 5.x does not run Hailo-8L HEFs (hef-runtime-family), so the status
 * bar turns to a warning, and the table names the file.
 */
export const HOSTILE_SETUP_HEF = '<img src=x onerror="window.__hailoPwned=5">.hef';

export const hostileSetupHefSpec = (): HefSpec => ({
  version: 3,
  hwArch: 3,
  networkGroups: [
    { name: 'setup', inputs: [{ name: 'setup/in', shape: [8, 8, 3], format: 1 }], outputs: [{ name: 'setup/out', shape: [1, 1, 4], format: 1 }] },
  ],
});

export async function writeHostileSetupHef(file: string): Promise<void> {
  writeFileSync(file, await buildHef(hostileSetupHefSpec()));
}

/** Names for the ONNX model: HTML, and markdown that would become a command link or an image. */
export const HOSTILE_ONNX = {
  node: '<img src=x onerror="window.__hailoPwned=4">',
  input: '[run docker](command:hailo.checkDocker)',
  output: '![tracker](http://127.0.0.1:9/pixel.png)',
};

export function writeHostileOnnx(file: string): void {
  const T = onnx.TensorProto.DataType.FLOAT;
  const tensor = (name: string, dims: number[]) =>
    onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: T, shape: { dim: dims.map((d) => ({ dimValue: d })) } } } });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'hailo-tools-e2e',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'hostile',
      input: [tensor(HOSTILE_ONNX.input, [1, 8])],
      output: [tensor(HOSTILE_ONNX.output, [1, 8])],
      node: [{ name: HOSTILE_ONNX.node, opType: 'Relu', input: [HOSTILE_ONNX.input], output: [HOSTILE_ONNX.output] }],
    },
  });
  writeFileSync(file, onnx.ModelProto.encode(model).finish());
}

/**
 * Device run exports (what "Export JSON" writes) for the results page: dfc-flow.md §5.2's published
 * run, and the same run with every name the page shows replaced by a HOSTILE payload.
 */
export function writeRunExports(dir: string): void {
  writeFileSync(`${dir}/rb_batched.run.json`, JSON.stringify(rbBatchedDocument(), null, 2));
  const evil = hostileDocument();
  const names = [HOSTILE.networkGroup, HOSTILE.input, HOSTILE.output];
  evil.title = `model${HOSTILE.networkGroup}.hef`;
  evil.report.outputs = evil.report.outputs.map((o, i) => ({ ...o, name: `out/${names[i % names.length]}` }));
  evil.report.checks = evil.report.checks.map((c) => ({ ...c, name: `${c.name} ${HOSTILE.output}` }));
  evil.report.model.device = { ...evil.report.model.device, architecture: `HAILO10H${HOSTILE.input}` };
  writeFileSync(`${dir}/hostile.run.json`, JSON.stringify(evil, null, 2));
}
