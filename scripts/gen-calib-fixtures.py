#!/usr/bin/env python3
"""Calibration-set fixtures for the inspector (server/src/core/calib/) and numpy's own numbers for them.

Writes test/fixtures/calib/*.npy|.npz, a few deliberately broken files, and expected.json with, per
case: numpy's header facts (np.load), per-channel min/max/mean/std computed by numpy in float64
along the channel axis (ddof=0), per-channel np.bincount for integer data, np.histogram of [0,1)
with 16 bins, constant entries and groups of identical entries (np.unique over rows). Also the
example set beside examples/model/tinycnn.alls. Run: python3 scripts/gen-calib-fixtures.py
"""
import json
import os
import struct
import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "test", "fixtures", "calib")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(20261201)
expected = {"cases": {}, "broken": {}}

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def stats(a, axis):
    a64 = a.astype(np.float64)
    if axis is None:
        flat = [a64.reshape(-1)]
    else:
        moved = np.moveaxis(a64, axis, -1)
        flat = [moved[..., c].reshape(-1) for c in range(moved.shape[-1])]
    out = []
    for v in flat:
        v = v[np.isfinite(v)]
        out.append({"min": float(v.min()), "max": float(v.max()), "mean": float(v.mean()), "std": float(v.std()), "count": int(v.size)})
    return out


def entry_checks(a):
    rows = np.ascontiguousarray(a).reshape(a.shape[0], -1)
    constant = [int(i) for i in range(rows.shape[0]) if np.all(rows[i] == rows[i][0])]
    _, inverse, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    groups = {}
    for i, g in enumerate(np.asarray(inverse).reshape(-1)):
        groups.setdefault(int(g), []).append(i)
    dups = sorted([g for g in groups.values() if len(g) > 1])
    return constant, dups


def case(name, a, axis, layout, distribution, fortran=False, save=None, notes=""):
    path = os.path.join(OUT, name)
    (save or (lambda p, x: np.save(p, x)))(path, a)
    back = np.load(path)
    assert back.dtype == a.dtype and back.shape == a.shape and np.array_equal(back, a, equal_nan=True)
    constant, dups = entry_checks(a)
    c = {
        "dtype": a.dtype.name,
        "descr": a.dtype.str,
        "shape": list(a.shape),
        "fortranOrder": bool(np.isfortran(a)) if a.ndim > 1 else False,
        "layout": layout,
        "channelAxis": axis,
        "channels": stats(a, axis),
        "overall": stats(a, None)[0],
        "unitHistogram16": [int(x) for x in np.histogram(a.astype(np.float64)[np.isfinite(a.astype(np.float64))], bins=16, range=(0.0, 1.0))[0]],
        "constantEntries": constant,
        "duplicateGroups": dups,
        "distribution": distribution,
        "notes": notes,
    }
    if a.dtype.kind == "u" and a.dtype.itemsize == 1:
        moved = np.moveaxis(a, axis, -1)
        c["bincount"] = [[int(x) for x in np.bincount(moved[..., k].reshape(-1).astype(np.int64), minlength=256)] for k in range(moved.shape[-1])]
    expected["cases"][name] = c


# Images-like NHWC sets matching an input of [1,3,8,8] (NHWC entry (8,8,3)).
pixels = rng.integers(0, 256, size=(64, 8, 8, 3), dtype=np.uint8)
case("pixels_nhwc_u8.npy", pixels, 3, "NHWC", "image-0-255")
case("uniform_nhwc_f32.npy", rng.random((64, 8, 8, 3), dtype=np.float32), 3, "NHWC", "uniform-unit", notes="np.random.rand-like")
case("normal_nhwc_f32.npy", rng.standard_normal((64, 8, 8, 3), dtype=np.float32), 3, "NHWC", "standard-normal")
case("pixels_nchw_u8.npy", np.ascontiguousarray(pixels.transpose(0, 3, 1, 2)), 1, "NCHW", "image-0-255")
case("half_nhwc_f16.npy", (rng.standard_normal((32, 8, 8, 3)) * 10 + 50).astype(np.float16), 3, "NHWC", "other")
case("fortran_nhwc_f32.npy", np.asfortranarray(pixels.astype(np.float32)), 3, "NHWC", "image-0-255", notes="fortran_order True")
case("bigendian_nhwc_f4.npy", (rng.standard_normal((16, 8, 8, 3)) * 3).astype(">f4"), 3, "NHWC", "zero-centred")
case("scaled_nhwc_f32.npy", (pixels / 255.0).astype(np.float32), 3, "NHWC", "unit-range", notes="pixels/255 with a 0-255 normalization in the script")
normalized = ((pixels.astype(np.float64) - np.array(MEAN)) / np.array(STD)).astype(np.float32)
case("normalized_nhwc_f32.npy", normalized, 3, "NHWC", "zero-centred", notes="already normalized with the script's mean/std")
few = pixels[:16].copy()
case("few_nhwc_u8.npy", few, 3, "NHWC", "image-0-255")
cd = pixels.copy()
cd[3] = 0
cd[40] = 7
cd[20] = cd[10]
cd[33] = cd[10]
case("constdup_nhwc_u8.npy", cd, 3, "NHWC", "image-0-255", notes="entries 3 and 40 constant, 10 = 20 = 33")
nanset = rng.standard_normal((8, 4, 4, 3)).astype(np.float32)
nanset[2, 1, 1, 0] = np.nan
nanset[5, 0, 0, 2] = np.inf
case("nonfinite_nhwc_f32.npy", nanset, 3, "NHWC", "zero-centred", notes="one NaN, one inf")
# Version 2.0 header (np.save picks 1.0 unless the header needs more than 65535 bytes).
def save_v2(p, x):
    with open(p, "wb") as f:
        np.lib.format.write_array(f, x, version=(2, 0))
case("v2_nhwc_i16.npy", rng.integers(-300, 300, size=(8, 4, 4, 3), dtype=np.int16), 3, "NHWC", "other", save=save_v2)

# .npz: np.savez (stored) with the images and a label vector; np.savez_compressed (deflated).
labels = np.arange(64, dtype=np.int64)
np.savez(os.path.join(OUT, "stored.npz"), images=pixels, labels=labels)
np.savez_compressed(os.path.join(OUT, "compressed.npz"), pixels)
for z in ("stored.npz", "compressed.npz"):
    with np.load(os.path.join(OUT, z)) as f:
        assert set(f.files) == ({"images", "labels"} if z == "stored.npz" else {"arr_0"})
expected["npz"] = {"stored.npz": {"members": ["images", "labels"], "inspects": "images", "same_as": "pixels_nhwc_u8.npy"}, "compressed.npz": {"members": ["arr_0"], "inspects": "arr_0", "same_as": "pixels_nhwc_u8.npy"}}

# Sampled read: the inspector takes k evenly spaced whole entries, index round(i*(n-1)/(k-1)).
normal = np.load(os.path.join(OUT, "normal_nhwc_f32.npy"))
k = 16
idx = [int(round(i * (normal.shape[0] - 1) / (k - 1))) for i in range(k)]
# Python's round is half-to-even; the inspector's Math.round is half-up: none of these is a tie.
assert all(abs(i * 63 / 15 - round(i * 63 / 15)) != 0.5 for i in range(k))
expected["sampled"] = {"file": "normal_nhwc_f32.npy", "entries": k, "indices": idx, "channels": stats(normal[idx], 3)}

# Broken files.
good = open(os.path.join(OUT, "pixels_nhwc_u8.npy"), "rb").read()
open(os.path.join(OUT, "truncated.npy"), "wb").write(good[: len(good) // 2])
expected["broken"]["truncated.npy"] = {"dataBytes": int(pixels.nbytes), "present": len(good) // 2 - (len(good) - pixels.nbytes)}
# A well-formed header padded to 20,000 bytes: numpy refuses it (max_header_size is 10,000).
hdr = b"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"
hdr = hdr + b" " * (20_000 - len(hdr) - 1) + b"\n"
huge = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr + np.zeros(4, "<f4").tobytes()
open(os.path.join(OUT, "huge_header.npy"), "wb").write(huge)
expected["broken"]["huge_header.npy"] = {"headerBytes": len(hdr)}
try:
    np.load(os.path.join(OUT, "huge_header.npy"))
    raise SystemExit("numpy loaded the huge header")
except ValueError as e:
    expected["broken"]["huge_header.npy"]["numpy"] = str(e).split(".")[0]
open(os.path.join(OUT, "not_npy.npy"), "wb").write(b"PK\x05\x06 not really anything")
structured = np.zeros(4, dtype=[("a", "<f4"), ("b", "<i4")])
np.save(os.path.join(OUT, "structured.npy"), structured)
open(os.path.join(OUT, "bad_zip.npz"), "wb").write(b"PK\x03\x04" + bytes(40))

# The example beside examples/model/tinycnn.alls (input [1,3,64,64] → NHWC (64,64,3)): 64 uint8 frames.
ex = np.random.default_rng(7).integers(0, 256, size=(64, 64, 64, 3), dtype=np.uint8)
np.save(os.path.join(ROOT, "examples", "model", "tinycnn_calib.npy"), ex)
expected["example"] = {"file": "examples/model/tinycnn_calib.npy", "shape": list(ex.shape), "channels": stats(ex, 3)}

# LSP fixture: a script whose set disagrees with it (uniform [0,1) float32, 8 entries, calibset_size=64).
lsp = os.path.join(OUT, "lsp")
os.makedirs(lsp, exist_ok=True)
np.save(os.path.join(lsp, "model.npy"), np.random.default_rng(3).random((8, 16, 16, 3), dtype=np.float32))

with open(os.path.join(OUT, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
print("wrote", len(expected["cases"]), "cases to", OUT)
