#!/usr/bin/python3
"""Generate test/fixtures/accuracy/expected.json: inputs and numpy's answers for the float-reference
numeric core (server/src/core/accuracy/: error metrics, NHWC<->NCHW transposes, normalization,
dequantisation). The TypeScript is checked against these numbers, never against its own output.

    /usr/bin/python3 scripts/gen-accuracy-fixtures.py      (needs numpy)
"""
import json
import math
import os

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "fixtures", "accuracy", "expected.json")
rng = np.random.default_rng(1171)


def num(x):
    """JSON has no NaN/Inf: spell them as strings."""
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def f32list(a):
    return [num(v) for v in np.asarray(a, dtype=np.float32).ravel().tolist()]


def metrics(device, reference):
    d = np.asarray(device, dtype=np.float32).astype(np.float64).ravel()
    r = np.asarray(reference, dtype=np.float32).astype(np.float64).ravel()
    err = d - r
    absd = np.abs(err)
    nr = np.linalg.norm(r)
    nd = np.linalg.norm(d)
    with np.errstate(all="ignore"):
        const = np.std(d) == 0 or np.std(r) == 0
        corr = None if const and not np.isnan(np.std(d) + np.std(r)) else num(np.corrcoef(d, r)[0, 1])
    return {
        "count": int(d.size),
        "maxAbsError": num(np.max(absd)),
        "maxAbsErrorIndex": int(np.argmax(absd)),  # numpy: the first NaN, else the first maximum
        "meanAbsError": num(np.mean(absd)),
        "relativeError": None if nr == 0 else num(np.linalg.norm(err) / nr),
        "correlation": corr,
        "cosine": None if (nd == 0 or nr == 0) else num(np.dot(d, r) / (nd * nr)),
        "nonFinite": {"device": int(np.sum(~np.isfinite(d))), "reference": int(np.sum(~np.isfinite(r)))},
    }


def quantize(x, scale, zp):
    return np.clip(np.round(x / scale) + zp, 0, 255).astype(np.uint8)


cases = []
ref = rng.standard_normal(1024).astype(np.float32)
cases.append(("close: reference + 1% noise", ref + (0.01 * rng.standard_normal(1024)).astype(np.float32), ref))
scale, zp = 0.03, 128
q = quantize(ref, scale, zp)
cases.append(("uint8 round trip: (round(x/0.03)+128 clipped) dequantised", ((q.astype(np.float32) - zp) * np.float32(scale)).astype(np.float32), ref))
u = rng.random(512).astype(np.float32)
cases.append(("badly calibrated: half the range clipped", np.minimum(u, 0.5).astype(np.float32) * 1.3, u))
cases.append(("anti-correlated", -ref[:100], ref[:100]))
cases.append(("constant device output", np.full(64, 0.25, dtype=np.float32), ref[:64]))
cases.append(("all-zero reference", ref[:32], np.zeros(32, dtype=np.float32)))
nan_dev = ref[:16].copy()
nan_dev[5] = np.nan
cases.append(("NaN on the device", nan_dev, ref[:16]))
big = (rng.standard_normal(1000) * 1e4).astype(np.float32)
cases.append(("large values", big + np.float32(3.5), big))

metric_cases = [{"name": n, "device": f32list(d), "reference": f32list(r), "expected": metrics(d, r)} for n, d, r in cases]

transposes = []
for dims, perm in [((1, 3, 4, 5), (0, 3, 1, 2)), ((1, 4, 5, 3), (0, 2, 3, 1)), ((2, 3, 4), (2, 0, 1)), ((1, 2, 3, 2, 2), (0, 4, 1, 3, 2)), ((1, 7, 1, 9), (0, 3, 1, 2))]:
    x = np.arange(int(np.prod(dims)), dtype=np.float32).reshape(dims) * np.float32(0.5) - 3
    transposes.append({"dims": list(dims), "perm": list(perm), "input": f32list(x), "expected": f32list(np.transpose(x, perm))})

norms = []
for mean, std in [([123.675, 116.28, 103.53], [58.395, 57.12, 57.375]), ([0.0, 0.0, 0.0], [255.0, 255.0, 255.0]), ([127.5], [127.5])]:
    c = len(mean)
    x = rng.integers(0, 256, size=(1, 4, 5, c), dtype=np.uint8)
    y = ((x.astype(np.float64) - np.array(mean)) / np.array(std)).astype(np.float32)
    norms.append({"mean": mean, "std": std, "input": x.ravel().tolist(), "expected": f32list(y)})

deq = []
qq = rng.integers(0, 256, size=(3, 4, 6), dtype=np.uint8)
deq.append({"zp": 3, "scale": 0.0123, "input": qq.ravel().tolist(), "expected": f32list((qq.astype(np.float64) - 3) * 0.0123)})
zps = [0, 1, 2, 100, 128, 255]
scales = [0.5, 0.25, 0.01, 0.003, 1.5, 2e-5]
deq.append({"zp": zps, "scale": scales, "input": qq.ravel().tolist(), "expected": f32list((qq.astype(np.float64) - np.array(zps)) * np.array(scales))})

os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, "w") as f:
    json.dump({"generator": "scripts/gen-accuracy-fixtures.py", "numpy": np.__version__, "metrics": metric_cases, "transposes": transposes, "normalizations": norms, "dequantize": deq}, f)
print(f"wrote {OUT}")


# ---- test/fixtures/accuracy/reference.json: one device frame of a two-output model, with numpy's
# float model (y = normalize(x) * 2 + 1 in NCHW, and its per-channel mean) and numpy's metrics of
# the device's (quantised, perturbed) outputs against it. The test builds the same two-node ONNX
# model and runs it through onnxruntime-node and the whole float-reference path.
import base64

H, W, C = 4, 5, 3
MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]
x = rng.integers(0, 256, size=(1, H, W, C), dtype=np.uint8)  # what the device was sent (NHWC)
xn = ((x.astype(np.float64) - np.array(MEAN)) / np.array(STD)).astype(np.float32)
nchw = np.transpose(xn, (0, 3, 1, 2))
y = (nchw * np.float32(2) + np.float32(1)).astype(np.float32)  # ONNX Mul then Add, float32
pooled = nchw.mean(axis=(2, 3), keepdims=True, dtype=np.float64).astype(np.float32)  # [1,3,1,1]
y_nhwc = np.transpose(y, (0, 2, 3, 1))
ZP, SCALE = 128, 0.05
q = np.clip(np.round(y_nhwc / SCALE) + ZP + rng.integers(-2, 3, size=y_nhwc.shape), 0, 255).astype(np.uint8)
dev_pool = (pooled.reshape(1, 1, C) + np.float32(0.01) * np.arange(1, C + 1, dtype=np.float32)).astype(np.float32)
deq = ((q.astype(np.float64) - ZP) * SCALE).astype(np.float32)
ref = {
    "hef": {"input": "tiny/input_layer1", "outputs": ["tiny/conv1", "tiny/avgpool1"], "shape": [H, W, C], "zp": ZP, "scale": SCALE},
    "normalization": {"mean": MEAN, "std": STD},
    "tensors": {
        "inputs": {"tiny/input_layer1": base64.b64encode(x.tobytes()).decode()},
        "outputs": {"tiny/conv1": base64.b64encode(q.tobytes()).decode(), "tiny/avgpool1": base64.b64encode(dev_pool.astype("<f4").tobytes()).decode()},
    },
    "expected": {
        "tiny/conv1": metrics(deq.ravel(), y_nhwc.ravel()),
        "tiny/avgpool1": metrics(dev_pool.ravel(), pooled.ravel()),
    },
    "onnxInput": f32list(nchw),
}
with open(os.path.join(os.path.dirname(OUT), "reference.json"), "w") as f:
    json.dump(ref, f, indent=1)
print("wrote reference.json")
