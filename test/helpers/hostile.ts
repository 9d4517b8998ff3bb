// Hostile files, built deterministically at test time (a few are gigabytes on paper but sparse or
// compressed on disk): one per fault of issue 14. Unit tests feed them to each reader, the LSP test
// drops them all in one workspace folder and checks the real server still answers, and the fuzz
// suite starts from them. Each builder documents the fault it reproduces.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, writeFileSync, ftruncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { onnx } from 'onnx-proto';

const be32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v >>> 0);
  return b;
};
const be64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(v);
  return b;
};

export const GiB = 1024 ** 3;

/**
 * A V1 HEF whose header promises a protobuf body of 2 GiB: a sparse file of 2 GiB + 28 bytes that
 * takes a few KB on disk. The body read was one read of 2³¹ bytes, which aborts Node (the language
 * server died 22 ms after start-up). One byte short of what the header promises, so no checksum
 * is computed (that would be 2 GiB of hashing).
 */
export function writeHugeBodyHef(path: string): void {
  const protoSize = 2 * GiB; // u32 field: fits
  const header = Buffer.concat([be32(0x01484546), be32(1), be32(protoSize), be32(0), be64(1n), be32(0)]); // magic, version 1, proto size, crc, ccws_size 1, reserved
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, header, 0, header.length, 0);
    ftruncateSync(fd, 28 + protoSize); // sparse: the body reads as zeros
  } finally {
    closeSync(fd);
  }
}

/** Makes a FIFO (named pipe) at `path`; false where the platform has none (Windows). */
export function makeFifo(path: string): boolean {
  if (process.platform === 'win32') return false;
  const r = spawnSync('mkfifo', [path]);
  return r.status === 0 && existsSync(path);
}

/**
 * Opens the write end of a FIFO without blocking, which releases any reader stuck in `open` on it
 * (cleanup for a test whose reader hung: without it the test process could never exit).
 */
export function releaseFifo(path: string): void {
  try {
    const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    closeSync(fd);
  } catch {
    /* no reader waiting (ENXIO) or gone: nothing to release */
  }
}

/** Writes `files` (name → content; a Buffer or a builder) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
}

/** A ustar header block for one member (enough for tar-stream and Python's tarfile). */
export function tarHeader(name: string, size: number, type = '0'): Buffer {
  const h = Buffer.alloc(512);
  const field = (off: number, len: number, v: string) => h.write(v, off, len, 'latin1');
  const octal = (off: number, len: number, v: number) => field(off, len, v.toString(8).padStart(len - 1, '0') + '\0');
  field(0, 100, name);
  octal(100, 8, 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, size);
  octal(136, 12, 0);
  field(148, 8, '        '); // checksum placeholder: spaces while summing
  field(156, 1, type);
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  let sum = 0;
  for (const b of h) sum += b;
  field(148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return h;
}

/** A tar member (header, data, padding to 512). */
export function tarMember(name: string, data: Uint8Array): Buffer {
  const pad = (512 - (data.length % 512)) % 512;
  return Buffer.concat([tarHeader(name, data.length), Buffer.from(data), Buffer.alloc(pad)]);
}

/** End-of-archive marker: two zero blocks. */
export const TAR_END = Buffer.alloc(1024);

/** A minimal HN: one input and one conv layer (names as the .alls side sees them). */
export function tinyHn(layerNames: string[] = ['conv1']): string {
  const layers: Record<string, unknown> = {
    'net/input_layer1': {
      type: 'input_layer',
      input: [],
      output: layerNames.map((n) => `net/${n}`),
      input_shapes: [[-1, 8, 8, 3]],
      output_shapes: [[-1, 8, 8, 3]],
      original_names: ['input'],
    },
  };
  for (const n of layerNames)
    layers[`net/${n}`] = {
      type: 'conv',
      input: ['net/input_layer1'],
      output: [],
      input_shapes: [[-1, 8, 8, 3]],
      output_shapes: [[-1, 8, 8, 16]],
      original_names: [n],
      params: { kernel_shape: [3, 3, 3, 16] },
    };
  return JSON.stringify({ name: 'net', net_params: { net_scopes: ['net'] }, layers });
}

/**
 * A gzip-compressed HAR of about 1.1 MB that inflates to 1.06 GiB: a small HN, then a weights
 * member of zeros, written as 17 concatenated gzip members of 64 MiB each (gunzip reads them as
 * one stream). It held the server at 1.6 GB and was re-read on every keystroke.
 */
export function harGzipBomb(): Buffer {
  const chunk = 64 * 1024 * 1024;
  const copies = 17;
  const zeros = gzipSync(Buffer.alloc(chunk), { level: 9 });
  const head = gzipSync(Buffer.concat([tarMember('net.hn', Buffer.from(tinyHn())), tarHeader('net.npz', copies * chunk)]));
  return Buffer.concat([head, ...Array<Buffer>(copies).fill(zeros)]);
}

/** A plain HAR whose JSON members add up to more than 64 MiB (the second one's header says so). */
export function harHugeJson(): Buffer {
  return Buffer.concat([tarMember('net.hn', Buffer.from(tinyHn())), tarHeader('net.original_model_meta.json', 65 * 1024 * 1024), Buffer.alloc(4096)]);
}

// ---- ONNX -------------------------------------------------------------------------------------

function varint(v: number): number[] {
  const out: number[] = [];
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
const lenField = (field: number, len: number) => [...varint((field << 3) | 2), ...varint(len)];
const strField = (field: number, s: string) => [...lenField(field, Buffer.byteLength(s)), ...Buffer.from(s)];
const intField = (field: number, v: number) => [...varint(field << 3), ...varint(v)];

/**
 * A model whose main graph holds an If node whose then_branch holds an If node … `depth` levels
 * deep (written directly in wire format: an encoder would recurse as deep). 10,000 levels gave
 * "unexpected error: Maximum call stack size exceeded".
 */
export function deepSubgraphOnnx(depth: number): Buffer {
  // Lengths from the innermost graph out; each level is Graph{node: Node{op_type, attribute: Attr{name, type, g: <inner>}}}.
  const attrHead = [...strField(1, 'then_branch'), ...intField(20, 5)];
  const nodeHead = strField(4, 'If');
  const prefixes: number[][] = [];
  let inner = 0; // the innermost graph is empty
  for (let i = 0; i < depth; i++) {
    const attrLen = attrHead.length + lenField(6, inner).length + inner;
    const nodeLen = nodeHead.length + lenField(5, attrLen).length + attrLen;
    const graphLen = lenField(1, nodeLen).length + nodeLen;
    prefixes.push([...lenField(1, nodeLen), ...nodeHead, ...lenField(5, attrLen), ...attrHead, ...lenField(6, inner)]);
    inner = graphLen;
  }
  const head = [...intField(1, 8), ...lenField(8, 2), ...intField(2, 13), ...lenField(7, inner)];
  const parts = [Buffer.from(head)];
  for (let i = prefixes.length - 1; i >= 0; i--) parts.push(Buffer.from(prefixes[i]));
  return Buffer.concat(parts);
}

/** A model with `nodes` empty NodeProtos (2 bytes each): 10⁶ objects from a 2 MB file. */
export function manyNodesOnnx(nodes: number): Buffer {
  const node = Buffer.from([0x0a, 0x00]);
  const body = Buffer.alloc(nodes * 2);
  for (let i = 0; i < nodes; i++) node.copy(body, i * 2);
  return Buffer.concat([Buffer.from([...intField(1, 8), ...lenField(8, 2), ...intField(2, 13), ...lenField(7, body.length)]), body]);
}

// ---- names ------------------------------------------------------------------------------------

/** Names an attacker would put in a file. */
export const EVIL = {
  image: 'x\n\n![t](http://127.0.0.1:9/pixel.png)',
  command: 'y`\n\n[run](command:workbench.action.terminal.new)',
  autolink: 'see http://127.0.0.1:9/x and www.example.com or me@example.com',
  html: '<img src=x onerror=alert(1)>',
  pipe: 'a|b`|`c',
  ansi: '\u001b]0;pwned\u0007\u001b[2J',
};

/** An ONNX model whose names, op type and producer carry EVIL's payloads. */
export function hostileOnnx(): Buffer {
  const F = onnx.TensorProto.DataType.FLOAT;
  const vi = (name: string, dims: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: { tensorType: { elemType: F, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
    });
  return Buffer.from(
    onnx.ModelProto.encode(
      onnx.ModelProto.create({
        irVersion: 8,
        producerName: EVIL.ansi,
        opsetImport: [{ domain: '', version: 13 }],
        graph: {
          name: 'g',
          input: [vi(EVIL.image, [1, EVIL.pipe])],
          output: [vi(EVIL.autolink, [1, 8])],
          node: [
            { name: EVIL.command, opType: 'Relu', input: [EVIL.image], output: [EVIL.html] },
            { name: 'conv1', opType: `Relu${EVIL.ansi}`, input: [EVIL.html], output: [EVIL.autolink] },
          ],
        },
      }),
    ).finish(),
  );
}

/** An HN whose scope, layer type, shapes, original names and params carry EVIL's payloads (layer `conv1`). */
export function hostileHn(): object {
  const scope = `net${EVIL.image}`;
  return {
    name: 'net',
    net_params: { net_scopes: [scope] },
    layers: {
      [`${scope}/conv1`]: {
        type: `conv${EVIL.command}`,
        input: [],
        output: [],
        input_shapes: [[-1, EVIL.pipe, 8, 3]],
        output_shapes: [[-1, 8, 8, 16]],
        original_names: ['conv1', EVIL.autolink, EVIL.image],
        params: { activation: EVIL.html, kernel_shape: [[[[[[EVIL.command]]]]]] },
      },
    },
  };
}

/**
 * An HN of `n` layers in one chain, written consumer-first (the reverse of dataflow order, so an
 * order that sorts or searches its ready list per layer does the most work): issue 29's 40,000
 * layers took more than a minute in `hailo-tools har`.
 */
export function chainHn(n: number): string {
  const name = (i: number) => (i === 0 ? 'net/input_layer1' : `net/conv${i}`);
  const layers: Record<string, unknown> = {};
  for (let i = n - 1; i >= 0; i--)
    layers[name(i)] = {
      type: i === 0 ? 'input_layer' : 'conv',
      input: i === 0 ? [] : [name(i - 1)],
      output: i === n - 1 ? [] : [name(i + 1)],
      input_shapes: [[-1, 8, 8, 3]],
      output_shapes: [[-1, 8, 8, 3]],
      original_names: [`n${i}`],
      params: {},
    };
  return JSON.stringify({ name: 'net', net_params: { net_scopes: ['net'] }, layers });
}

/** A plain-tar HAR holding `hn` as `net.hn`. */
export function harOf(hn: string): Buffer {
  return Buffer.concat([tarMember('net.hn', Buffer.from(hn)), TAR_END]);
}
