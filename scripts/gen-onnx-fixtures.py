#!/usr/bin/python3
"""Generate the small ONNX fixtures under test/fixtures/onnx/ (and the HAR fixture's ONNX).

Run with Debian's python3-onnx (`apt-get install -y python3-onnx`, onnx 1.12, IR 8, opset <= 17):
    /usr/bin/python3 scripts/gen-onnx-fixtures.py
Deterministic (fixed seed), so re-running reproduces the committed bytes.

Fixtures (each small, weights random):
  vit_b1_op16.onnx      ViT block, batch dim [1,50,32], decomposed LayerNorm, MatMul+Add linears, opset 16
  vit_b1_op17.onnx      same block, fused LayerNormalization, opset 17
  vit_nobatch_op16.onnx same block without batch dim [50,32]: Gemm linears (torch emits Gemm at rank 2), opset 16
  vit_nobatch_op17.onnx same, fused LayerNormalization, opset 17
  vit_dynbatch.onnx     ViT block with a symbolic batch 'N' and torch-style Shape->Gather->Unsqueeze->Concat->Reshape
  tower_packed.onnx     packed-sequence vision tower: patchify to [seq, C] (no batch), Shape/Concat plumbing
                        feeding Reshape, rank-2/3 attention, Tile of a CLS token over axis 0
  cnn.onnx              CNN: Conv/BN/Relu/MaxPool(ceil)/depthwise/ConvTranspose/Resize/Concat/Pad/GAP/Flatten/Gemm
  ops.onnx              one of each remaining op the shape inference handles (Slice, Split, Range, Expand, ...)
  rejected.onnx         ops the DFC is known to reject (TopK, GatherElements, Mod, GridSample, NonZero, embedding Gather)
  ext.onnx + ext.onnx.data   CNN with every initializer > 64 B in external data
  ext_missing.onnx      external data pointing at a file that does not exist
  truncated.onnx        vit_b1_op17.onnx cut in half
  corrupt.onnx          vit_b1_op17.onnx with garbage over the graph's header bytes
  not_onnx.onnx         a text file
  empty.onnx            zero bytes
"""
import os
import shutil
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "fixtures", "onnx")
F = TensorProto.FLOAT
I64 = TensorProto.INT64


class Builder:
    """Collects nodes and initializers; names nodes torch-style (/blocks.0/attn/MatMul)."""

    def __init__(self, seed=0):
        self.nodes = []
        self.inits = []
        self.rng = np.random.default_rng(seed)
        self.count = {}

    def uid(self, base):
        n = self.count.get(base, 0)
        self.count[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def weight(self, name, shape, scale=0.05):
        self.inits.append(numpy_helper.from_array((self.rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def const_i64(self, name, values):
        self.inits.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
        return name

    def const_f(self, name, value):
        self.inits.append(numpy_helper.from_array(np.array(value, dtype=np.float32), name))
        return name

    def op(self, op_type, inputs, scope, n_out=1, domain="", **attrs):
        name = self.uid(f"{scope}/{op_type}")
        outs = [f"{name}_output_{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=name, domain=domain, **attrs))
        return outs[0] if n_out == 1 else outs

    def constant_i64(self, scope, values):
        """A Constant node holding int64 values (torch exports shape constants this way)."""
        name = self.uid(f"{scope}/Constant")
        out = f"{name}_output_0"
        arr = np.array(values, dtype=np.int64)
        self.nodes.append(helper.make_node("Constant", [], [out], name=name, value=numpy_helper.from_array(arr)))
        return out


def layer_norm(b, x, dim, scope, fused):
    g = b.weight(f"{scope}.weight", [dim], 1.0)
    beta = b.weight(f"{scope}.bias", [dim])
    if fused:
        return b.op("LayerNormalization", [x, g, beta], scope, axis=-1, epsilon=1e-5)
    mean = b.op("ReduceMean", [x], scope, axes=[-1], keepdims=1)
    d = b.op("Sub", [x, mean], scope)
    sq = b.op("Pow", [d, b.const_f(f"{scope}.two", 2.0)], scope)
    var = b.op("ReduceMean", [sq], scope, axes=[-1], keepdims=1)
    ve = b.op("Add", [var, b.const_f(f"{scope}.eps", 1e-5)], scope)
    sd = b.op("Sqrt", [ve], scope)
    n = b.op("Div", [d, sd], scope)
    m = b.op("Mul", [n, g], scope)
    return b.op("Add", [m, beta], scope)


def linear(b, x, din, dout, scope, gemm):
    if gemm:  # torch: rank-2 nn.Linear -> Gemm(transB=1) with weight [out, in]
        w = b.weight(f"{scope}.weight", [dout, din])
        bias = b.weight(f"{scope}.bias", [dout])
        return b.op("Gemm", [x, w, bias], scope, alpha=1.0, beta=1.0, transB=1)
    w = b.weight(f"{scope}.weight_t", [din, dout])
    bias = b.weight(f"{scope}.bias", [dout])
    y = b.op("MatMul", [x, w], scope)
    return b.op("Add", [bias, y], scope)


def gelu_erf(b, x, scope):
    d = b.op("Div", [x, b.const_f(f"{scope}.sqrt2", 1.4142135)], scope)
    e = b.op("Erf", [d], scope)
    a = b.op("Add", [e, b.const_f(f"{scope}.one", 1.0)], scope)
    m = b.op("Mul", [x, a], scope)
    return b.op("Mul", [m, b.const_f(f"{scope}.half", 0.5)], scope)


def vit_block(b, x, seq, dim, heads, fused_ln, batch, scope="/blocks.0", dyn_shape=False):
    """One pre-norm transformer block. batch=True: tensors [1,S,D]; False: [S,D] (Gemm linears)."""
    hd = dim // heads
    gemm = not batch
    h = layer_norm(b, x, dim, f"{scope}/norm1", fused_ln)
    qkv = linear(b, h, dim, 3 * dim, f"{scope}/attn/qkv", gemm)
    if dyn_shape:  # torch-style: B = x.shape[0]; reshape(B, S, 3, H, hd)
        s = b.op("Shape", [x], f"{scope}/attn")
        n = b.op("Gather", [s, b.constant_i64(f"{scope}/attn", 0)], f"{scope}/attn", axis=0)
        nu = b.op("Unsqueeze", [n, b.constant_i64(f"{scope}/attn", [0])], f"{scope}/attn")
        rest = b.constant_i64(f"{scope}/attn", [seq, 3, heads, hd])
        shp = b.op("Concat", [nu, rest], f"{scope}/attn", axis=0)
    else:
        shp = b.const_i64(f"{scope}.qkv_shape", [1, seq, 3, heads, hd] if batch else [seq, 3, heads, hd])
    r = b.op("Reshape", [qkv, shp], f"{scope}/attn")
    perm = [2, 0, 3, 1, 4] if batch else [1, 2, 0, 3]
    t = b.op("Transpose", [r], f"{scope}/attn", perm=perm)
    q = b.op("Gather", [t, b.constant_i64(f"{scope}/attn", 0)], f"{scope}/attn", axis=0)
    k = b.op("Gather", [t, b.constant_i64(f"{scope}/attn", 1)], f"{scope}/attn", axis=0)
    v = b.op("Gather", [t, b.constant_i64(f"{scope}/attn", 2)], f"{scope}/attn", axis=0)
    kt = b.op("Transpose", [k], f"{scope}/attn", perm=[0, 1, 3, 2] if batch else [0, 2, 1])
    qk = b.op("MatMul", [q, kt], f"{scope}/attn")
    qs = b.op("Mul", [qk, b.const_f(f"{scope}.scale", hd ** -0.5)], f"{scope}/attn")
    sm = b.op("Softmax", [qs], f"{scope}/attn", axis=-1)
    av = b.op("MatMul", [sm, v], f"{scope}/attn")
    at = b.op("Transpose", [av], f"{scope}/attn", perm=[0, 2, 1, 3] if batch else [1, 0, 2])
    if dyn_shape:
        rest2 = b.constant_i64(f"{scope}/attn", [seq, dim])
        shp2 = b.op("Concat", [nu, rest2], f"{scope}/attn", axis=0)
    else:
        shp2 = b.const_i64(f"{scope}.merge_shape", [1, seq, dim] if batch else [seq, dim])
    m = b.op("Reshape", [at, shp2], f"{scope}/attn")
    p = linear(b, m, dim, dim, f"{scope}/attn/proj", gemm)
    x1 = b.op("Add", [x, p], scope)
    h2 = layer_norm(b, x1, dim, f"{scope}/norm2", fused_ln)
    f1 = linear(b, h2, dim, 2 * dim, f"{scope}/mlp/fc1", gemm)
    g = gelu_erf(b, f1, f"{scope}/mlp/act")
    f2 = linear(b, g, 2 * dim, dim, f"{scope}/mlp/fc2", gemm)
    return b.op("Add", [x1, f2], scope)


def model(b, name, inputs, outputs, opset, ir=8, extra_opsets=(), check=True):
    g = helper.make_graph(b.nodes, name, inputs, outputs, b.inits)
    m = helper.make_model(g, producer_name="hailo-tools-fixtures", opset_imports=[helper.make_opsetid("", opset), *extra_opsets])
    m.ir_version = ir
    if check:  # onnx 1.12's checker wants a shape on every output; shape-less outputs skip it (ORT still validates)
        onnx.checker.check_model(m)
    return m


def typed_outputs(b, names, inputs, opset):
    """Outputs with their element type (from onnx's type inference) and no declared shape, so the
    shapes under test come from our inference, not from the file."""
    g = helper.make_graph(b.nodes, "probe", inputs, [], b.inits)
    m = onnx.shape_inference.infer_shapes(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]))
    types = {v.name: v.type.tensor_type.elem_type for v in m.graph.value_info}
    return [helper.make_tensor_value_info(n, types.get(n, F), None) for n in names]


def save(m, name, **kw):
    path = os.path.join(OUT, name)
    onnx.save(m, path, **kw)
    return path


def vit_fixture(batch, opset, seq=50, dim=32, heads=4):
    b = Builder(seed=1)
    shape = [1, seq, dim] if batch else [seq, dim]
    y = vit_block(b, "x", seq, dim, heads, fused_ln=opset >= 17, batch=batch)
    y = b.op("Identity", [y], "/out")
    b.nodes[-1].output[0] = "y"
    return model(b, "vit_block", [helper.make_tensor_value_info("x", F, shape)], [helper.make_tensor_value_info("y", F, shape)], opset)


def vit_dynbatch(seq=50, dim=32, heads=4):
    b = Builder(seed=2)
    y = vit_block(b, "x", seq, dim, heads, fused_ln=True, batch=True, dyn_shape=True)
    b.nodes[-1].output[0] = "y"
    return model(b, "vit_dynbatch", [helper.make_tensor_value_info("x", F, ["N", seq, dim])],
                 [helper.make_tensor_value_info("y", F, ["N", seq, dim])], 17)


def tower_packed(img=32, patch=8, dim=32, heads=4):
    """Qwen-VL-like tower prologue: image [1,3,H,W] -> patches [seq, 3*p*p] (no batch), embed, CLS via Tile,
    then a rank-2 block whose head reshapes are computed from Shape(x) at run time."""
    b = Builder(seed=3)
    gh = img // patch
    seq = gh * gh
    s = "/visual/patch_embed"
    # x/127.5-1 in graph
    xn = b.op("Div", ["image", b.const_f("/visual.scale", 127.5)], s)
    xn = b.op("Sub", [xn, b.const_f("/visual.one", 1.0)], s)
    # patchify: [1,3,gh,p,gh,p] -> perm -> [gh*gh, 3*p*p] with the leading dim computed from Shape
    r6 = b.op("Reshape", [xn, b.const_i64("/visual.p6", [1, 3, gh, patch, gh, patch])], s)
    t6 = b.op("Transpose", [r6], s, perm=[0, 2, 4, 1, 3, 5])
    sh = b.op("Shape", [t6], s)
    d1 = b.op("Gather", [sh, b.constant_i64(s, 1)], s, axis=0)
    d2 = b.op("Gather", [sh, b.constant_i64(s, 2)], s, axis=0)
    nseq = b.op("Mul", [d1, d2], s)
    nsu = b.op("Unsqueeze", [nseq, b.constant_i64(s, [0])], s)
    flat = b.op("Concat", [nsu, b.constant_i64(s, [-1])], s, axis=0)
    patches = b.op("Reshape", [t6, flat], s)  # [seq, 3*p*p]
    emb = linear(b, patches, 3 * patch * patch, dim, f"{s}/proj", gemm=True)  # [seq, D]
    # CLS token tiled over axis 0 then concatenated in front: [seq+1, D]
    cls = b.weight("/visual.cls_token", [1, 1, dim])
    cls_t = b.op("Tile", [cls, b.const_i64("/visual.cls_reps", [1, 1, 1])], "/visual")
    cls2 = b.op("Reshape", [cls_t, b.const_i64("/visual.cls_shape", [1, dim])], "/visual")
    x = b.op("Concat", [cls2, emb], "/visual", axis=0)
    seq1 = seq + 1
    # one packed block: head split shape from Shape(x)[0]
    scope = "/visual/blocks.0"
    hd = dim // heads
    h = layer_norm(b, x, dim, f"{scope}/norm1", fused=True)
    qkv = linear(b, h, dim, 3 * dim, f"{scope}/attn/qkv", gemm=True)
    sx = b.op("Shape", [x], f"{scope}/attn")
    L = b.op("Gather", [sx, b.constant_i64(f"{scope}/attn", 0)], f"{scope}/attn", axis=0)
    Lu = b.op("Unsqueeze", [L, b.constant_i64(f"{scope}/attn", [0])], f"{scope}/attn")
    shp = b.op("Concat", [Lu, b.constant_i64(f"{scope}/attn", [3, heads, -1])], f"{scope}/attn", axis=0)
    r = b.op("Reshape", [qkv, shp], f"{scope}/attn")  # [L,3,H,hd]
    t = b.op("Transpose", [r], f"{scope}/attn", perm=[1, 2, 0, 3])  # [3,H,L,hd]
    q, k, v = b.op("Split", [t, b.const_i64(f"{scope}.split", [1, 1, 1])], f"{scope}/attn", n_out=3, axis=0)
    q = b.op("Squeeze", [q, b.constant_i64(f"{scope}/attn", [0])], f"{scope}/attn")
    k = b.op("Squeeze", [k, b.constant_i64(f"{scope}/attn", [0])], f"{scope}/attn")
    v = b.op("Squeeze", [v, b.constant_i64(f"{scope}/attn", [0])], f"{scope}/attn")
    kt = b.op("Transpose", [k], f"{scope}/attn", perm=[0, 2, 1])
    qk = b.op("MatMul", [q, kt], f"{scope}/attn")
    qs = b.op("Mul", [qk, b.const_f(f"{scope}.scale", hd ** -0.5)], f"{scope}/attn")
    sm = b.op("Softmax", [qs], f"{scope}/attn", axis=-1)
    av = b.op("MatMul", [sm, v], f"{scope}/attn")  # [H,L,hd]
    at = b.op("Transpose", [av], f"{scope}/attn", perm=[1, 0, 2])
    shp2 = b.op("Concat", [Lu, b.constant_i64(f"{scope}/attn", [-1])], f"{scope}/attn", axis=0)
    m = b.op("Reshape", [at, shp2], f"{scope}/attn")
    p = linear(b, m, dim, dim, f"{scope}/attn/proj", gemm=True)
    x1 = b.op("Add", [x, p], scope)
    h2 = layer_norm(b, x1, dim, f"{scope}/norm2", fused=True)
    f1 = linear(b, h2, dim, 2 * dim, f"{scope}/mlp/fc1", gemm=True)
    g = gelu_erf(b, f1, f"{scope}/mlp/act")
    f2 = linear(b, g, 2 * dim, dim, f"{scope}/mlp/fc2", gemm=True)
    y = b.op("Add", [x1, f2], scope)
    # merger: drop CLS, back to an image-like [1, gh, gw, D] output (NHWC-like, as the tower does)
    body = b.op("Slice", [y, b.const_i64("/visual.s0", [1]), b.const_i64("/visual.s1", [2**63 - 1]),
                          b.const_i64("/visual.s2", [0])], "/visual/merger")
    out = b.op("Reshape", [body, b.const_i64("/visual.oshape", [1, gh, gh, dim])], "/visual/merger")
    b.nodes[-1].output[0] = "image_embeds"
    return model(b, "tower_packed", [helper.make_tensor_value_info("image", F, [1, 3, img, img])],
                 [helper.make_tensor_value_info("image_embeds", F, [1, gh, gh, dim])], 17)


def cnn(name="cnn"):
    b = Builder(seed=4)
    s = "/backbone"

    def conv(x, cin, cout, k, scope, **kw):
        w = b.weight(f"{scope}.weight", [cout, cin // kw.get("group", 1), k, k])
        bias = b.weight(f"{scope}.bias", [cout])
        return b.op("Conv", [x, w, bias], scope, kernel_shape=[k, k], **kw)

    x = conv("input", 3, 8, 3, f"{s}/conv1", strides=[2, 2], pads=[1, 1, 1, 1])  # 1x8x32x32
    bn = [b.weight(f"{s}/bn1.{p}", [8], 1.0 if p in ("scale", "var") else 0.05) for p in ("scale", "bias", "mean")]
    var = f"{s}/bn1.var"
    b.inits.append(numpy_helper.from_array(np.ones(8, np.float32), var))
    x = b.op("BatchNormalization", [x, *bn, var], f"{s}/bn1", epsilon=1e-5)
    x = b.op("Relu", [x], s)
    x = b.op("MaxPool", [x], s, kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)  # 1x8x16x16
    sig = b.op("Sigmoid", [x], f"{s}/act")
    x = b.op("Mul", [x, sig], f"{s}/act")  # SiLU
    dw = conv(x, 8, 8, 3, f"{s}/dw", group=8, auto_pad="SAME_UPPER")
    pw = conv(dw, 8, 16, 1, f"{s}/pw")  # 1x16x16x16
    down = conv(pw, 16, 16, 3, f"{s}/down", strides=[2, 2], dilations=[1, 1], pads=[0, 0, 1, 1])  # 1x16x8x8
    wt = b.weight("/neck/up.weight", [16, 8, 2, 2])
    up = b.op("ConvTranspose", [down, wt], "/neck/up", strides=[2, 2], kernel_shape=[2, 2])  # 1x8x16x16
    b.inits.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "/neck.scales"))
    rs = b.op("Resize", [down, "", "/neck.scales"], "/neck", mode="nearest")  # 1x16x16x16
    cat = b.op("Concat", [up, rs, pw], "/neck", axis=1)  # 1x40x16x16
    pd = b.op("Pad", [cat, b.const_i64("/neck.pads", [0, 0, 1, 1, 0, 0, 1, 1])], "/neck", mode="constant")  # 18x18
    ap = b.op("AveragePool", [pd], "/neck", kernel_shape=[3, 3], strides=[2, 2])  # 8x8
    gap = b.op("GlobalAveragePool", [ap], "/head")
    fl = b.op("Flatten", [gap], "/head", axis=1)
    logits = linear(b, fl, 40, 10, "/head/fc", gemm=True)
    b.nodes[-1].output[0] = "logits"
    return model(b, name, [helper.make_tensor_value_info("input", F, [1, 3, 64, 64])],
                 [helper.make_tensor_value_info("logits", F, [1, 10])], 13)


def ops_fixture():
    """Everything else the shape inference covers, on a [2,3,8,8] input; each output is observable."""
    b = Builder(seed=5)
    s = "/ops"
    x = "x"
    outs = []
    sl = b.op("Slice", [x, b.const_i64("sl.st", [-1, 1]), b.const_i64("sl.en", [-(2**63), 7]),
                         b.const_i64("sl.ax", [3, 2]), b.const_i64("sl.sp", [-2, 2])], s)  # [2,3,3,4]
    outs.append(sl)
    sp = b.op("Split", [x, b.const_i64("sp.sizes", [1, 2])], s, n_out=2, axis=1)
    outs += sp
    sq = b.op("Squeeze", [sp[0], b.const_i64("sq.ax", [1])], s)  # [2,8,8]
    us = b.op("Unsqueeze", [sq, b.const_i64("us.ax", [-1, 0])], s)  # [1,2,8,8,1]
    outs += [sq, us]
    rg = b.op("Range", [b.const_i64("rg.a", 2), b.const_i64("rg.b", 11), b.const_i64("rg.c", 3)], s)  # [3]
    cos = b.op("ConstantOfShape", [b.const_i64("cos.shape", [2, 5])], s,
               value=numpy_helper.from_array(np.array([1.5], np.float32)))
    ex = b.op("Expand", [b.weight("ex.in", [3, 1]), b.const_i64("ex.shape", [2, 1, 4])], s)  # [2,3,4]
    tl = b.op("Tile", [x, b.const_i64("tl.reps", [1, 2, 1, 1])], s)  # [2,6,8,8]
    wh = b.op("Where", [b.op("Greater", [x, b.const_f("wh.z", 0.0)], s), x, b.const_f("wh.o", 0.0)], s)
    fl = b.op("Flatten", [x], s, axis=2)  # [6,64]
    outs += [rg, cos, ex, tl, wh, fl]
    rm = b.op("ReduceMax", [x], s, axes=[2, 3], keepdims=0)  # [2,3]
    rs = b.op("ReduceSum", [x, b.const_i64("rs.ax", [-2])], s, keepdims=1)  # [2,3,1,8]
    am = b.op("ArgMax", [x], s, axis=1, keepdims=0)  # [2,8,8]
    cst = b.op("Cast", [am], s, to=TensorProto.FLOAT)
    outs += [rm, rs, am, cst]
    tr = b.op("Transpose", [x], s)  # reversed perm [8,8,3,2]
    mm1 = b.op("MatMul", [b.weight("mm.vec", [8]), x], s)  # [2,3,8]
    mm2 = b.op("MatMul", [x, b.weight("mm.vec2", [8])], s)  # [2,3,8]
    sz = b.op("Size", [x], s)
    shp = b.op("Shape", [x], s, start=1, end=-1)  # opset 15: [3,8]
    cl = b.op("Clip", [x, b.const_f("cl.lo", 0.0), b.const_f("cl.hi", 6.0)], s)
    outs += [tr, mm1, mm2, sz, shp, cl]
    # value propagation: reshape to [N*C, -1] computed from Shape with arithmetic and Slice
    sh = b.op("Shape", [x], s)
    nc = b.op("Slice", [sh, b.const_i64("v.s0", [0]), b.const_i64("v.s1", [2])], s)
    prod = b.op("ReduceProd", [nc], s, keepdims=1)
    cc = b.op("Concat", [prod, b.const_i64("v.m1", [-1])], s, axis=0)
    rsh = b.op("Reshape", [x, cc], s)  # [6,64]
    outs.append(rsh)
    # Resize by sizes computed from the shape: out = in * 2 on H, W
    hw = b.op("Slice", [sh, b.const_i64("v.s2", [2]), b.const_i64("v.s3", [4])], s)
    hw2 = b.op("Mul", [hw, b.const_i64("v.two", [2])], s)
    sizes = b.op("Concat", [nc, hw2], s, axis=0)
    rz = b.op("Resize", [x, "", "", sizes], s, mode="linear")  # [2,3,16,16]
    outs.append(rz)
    # Einsum: inferred from its equation (checked against onnxruntime in onnx-shapes.test.ts)
    es = b.op("Einsum", [x, x], s, equation="nchw,nchw->nc")
    outs.append(es)
    eq = b.op("Equal", [b.op("Cast", [sh], s, to=TensorProto.INT64), b.const_i64("v.eight", 8)], s)
    wsh = b.op("Where", [eq, b.const_i64("v.one", 1), sh], s)  # [2,3,1,1] values
    exp2 = b.op("Expand", [x, wsh], s)  # expand [2,3,8,8] to [2,3,1,1] -> stays [2,3,8,8]
    outs.append(exp2)
    gemm_t = b.op("Gemm", [b.weight("gm.a", [5, 4]), b.weight("gm.b", [6, 5])], s, transA=1, transB=1)  # [4,6]
    outs.append(gemm_t)
    lrn = b.op("InstanceNormalization", [x, b.weight("in.s", [3], 1.0), b.weight("in.b", [3])], s)
    outs.append(lrn)
    d2s = b.op("DepthToSpace", [b.op("Tile", [x, b.const_i64("tl2.reps", [1, 4, 1, 1])], s)], s, blocksize=2, mode="CRD")
    outs.append(d2s)  # [2,3,16,16]
    gr = b.op("Gather", [x, b.const_i64("g.idx", [[0, 2], [1, 1]])], s, axis=1)  # [2,2,2,8,8]
    outs.append(gr)
    for i, o in enumerate(outs):
        b.nodes.append(helper.make_node("Identity", [o], [f"out{i}"], name=f"/outs/Identity_{i}"))
    inputs = [helper.make_tensor_value_info("x", F, [2, 3, 8, 8])]
    return model(b, "ops", inputs, typed_outputs(b, [f"out{i}" for i in range(len(outs))], inputs, 15), 15, check=False)


def rejected_fixture():
    """Ops the DFC rejects in real parser logs, plus an embedding lookup and a batch-axis concat."""
    b = Builder(seed=6)
    s = "/head"
    x = "feat"  # [1,4,8,8]
    flat = b.op("Reshape", [x, b.const_i64("r.shape", [1, 4, 64])], s)
    vals, idx = b.op("TopK", [flat, b.const_i64("k", [5])], s, n_out=2, axis=-1)
    ge = b.op("GatherElements", [flat, idx], s, axis=2)
    md = b.op("Mod", [idx, b.const_i64("m", 3)], s)
    grid = b.weight("grid", [1, 6, 6, 2], 0.5)
    gs = b.op("GridSample", [x, grid], s, align_corners=0)
    nz = b.op("NonZero", [b.op("Greater", [x, b.const_f("thr", 0.5)], s)], s)
    emb = b.op("Gather", [b.weight("word_embeddings", [100, 16]), "tokens"], "/embeddings", axis=0)  # [1,7,16]
    cat = b.op("Concat", [x, x], s, axis=0)  # batch-axis concat [2,4,8,8]
    tl = b.op("Tile", [x, b.const_i64("reps", [2, 1, 1, 1])], s)  # batch-axis tile
    rmx = b.op("ReduceMax", [x], s, axes=[3], keepdims=0)
    outs = [vals, ge, md, gs, nz, emb, cat, tl, rmx]
    names = ["topk_values", "gathered", "mod", "sampled", "nonzero", "embeddings", "cat", "tiled", "rmax"]
    for o, n in zip(outs, names):
        b.nodes.append(helper.make_node("Identity", [o], [n], name=f"/outs/{n}"))
    inputs = [helper.make_tensor_value_info("feat", F, [1, 4, 8, 8]), helper.make_tensor_value_info("tokens", I64, [1, 7])]
    return model(b, "rejected", inputs, typed_outputs(b, names, inputs, 16), 16, check=False)


def main():
    os.makedirs(OUT, exist_ok=True)
    save(vit_fixture(True, 16), "vit_b1_op16.onnx")
    v17 = save(vit_fixture(True, 17), "vit_b1_op17.onnx")
    save(vit_fixture(False, 16), "vit_nobatch_op16.onnx")
    save(vit_fixture(False, 17), "vit_nobatch_op17.onnx")
    save(vit_dynbatch(), "vit_dynbatch.onnx")
    save(tower_packed(), "tower_packed.onnx")
    save(cnn(), "cnn.onnx")
    save(ops_fixture(), "ops.onnx")
    save(rejected_fixture(), "rejected.onnx")
    # external data: every tensor >= 64 B goes to ext.onnx.data
    for f in ("ext.onnx", "ext.onnx.data"):
        if os.path.exists(os.path.join(OUT, f)):
            os.remove(os.path.join(OUT, f))
    save(cnn("ext"), "ext.onnx", save_as_external_data=True, all_tensors_to_one_file=True,
         location="ext.onnx.data", size_threshold=64)
    # ext_missing.onnx: saved with its data in a scratch folder, then only the .onnx is kept, so the reference dangles
    with tempfile.TemporaryDirectory() as tmp:
        onnx.save(cnn("ext_missing"), os.path.join(tmp, "ext_missing.onnx"), save_as_external_data=True,
                  all_tensors_to_one_file=True, location="ext_missing.onnx.data", size_threshold=64)
        shutil.copyfile(os.path.join(tmp, "ext_missing.onnx"), os.path.join(OUT, "ext_missing.onnx"))
    data = open(v17, "rb").read()
    with open(os.path.join(OUT, "truncated.onnx"), "wb") as fh:
        fh.write(data[: len(data) // 2])
    bad = bytearray(data)
    rng = np.random.default_rng(7)
    bad[2:34] = rng.integers(0, 256, 32, dtype=np.uint8).tobytes()
    with open(os.path.join(OUT, "corrupt.onnx"), "wb") as fh:
        fh.write(bytes(bad))
    with open(os.path.join(OUT, "not_onnx.onnx"), "w") as fh:
        fh.write("This is not an ONNX model, just text.\n")
    open(os.path.join(OUT, "empty.onnx"), "wb").close()
    for f in sorted(os.listdir(OUT)):
        print(f"{os.path.getsize(os.path.join(OUT, f)):>9}  {f}")


if __name__ == "__main__":
    sys.exit(main())
