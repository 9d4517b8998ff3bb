#!/usr/bin/python3
"""Generate test/fixtures/har/tinycnn_quantized.har: the parsed fixture (tinycnn_hailo_model.har)
as an optimized (quantized) archive, and tinycnn_quantized.noise.json, the noise-analysis results
our pipeline writes beside it.

No quantized HAR is public (../shared/corpus/har holds one parsed HAR), so what differs from the
parsed archive is built from the facts we have, each with its source:
  * metadata.json `state: quantized_model` and a `<net>.q.npz` member: netron's hailo.js maps
    quantized_model/compiled_model to `<base>.q.npz` (docs/research/hn-har-format.md#har-container).
  * q.npz keys `<net>/<layer>/<param>:0.npy` (the real parsed npz's form, section 1) with the
    params netron reads from it: kernel, bias, input_activation_bits, output_activation_bits,
    weight_bits, bias_decomposition; `stats/output_0/stats_limvals` (Hailo's diagnostic tool reads
    `stats/output_{i}/stats_limvals:0` from get_params_translated()).
  * HN `quantization_params.precision_mode` per layer [guess: the HN field that holds what
    `quantization_param(..., precision_mode=...)` sets; the real parsed HN has `quantization_params: {}`
    and a weak source shows model-script values landing there].
  * the noise results: keys `<net>/<layer>/layer_noise_analysis/noise_results/<net>/<output>` and
    `.../partial_snr` (Hailo's tutorial and diagnostic tool read these from get_params_statistics());
    the SNR values are invented for the fixture (conv3 and deconv1 noisy); the distribution is the
    calibration core's words for examples/model/tinycnn_calib.npy, as the noise run writes them.

    /usr/bin/python3 scripts/gen-har-quantized-fixture.py      (python3 + numpy; run gen-har-fixture.py first)
"""
import io
import json
import os
import tarfile
import zipfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "test", "fixtures", "har")
SRC = os.path.join(FIX, "tinycnn_hailo_model.har")
OUT = os.path.join(FIX, "tinycnn_quantized.har")
NOISE = os.path.join(FIX, "tinycnn_quantized.noise.json")
NET = "tinycnn"
WEIGHTED = {"conv1", "dw1", "conv2", "conv3", "deconv1", "fc1"}
SNR = {  # invented figures, dB at the one output (fc1)
    "conv1": 31.5, "maxpool1": 35.2, "activation1": 29.8, "dw1": 27.4, "conv2": 24.9, "conv3": 6.3,
    "deconv1": 9.7, "resize1": 33.1, "concat1": 22.6, "external_pad1": 40.0, "avgpool1": 30.4,
    "global_avg_pool1": 28.8, "fc1": 21.2, "output_layer1": 21.0,
}
MTIME = 1762114897.1074162
DATE = (2025, 11, 2, 0, 0, 0)


def npy(a):
    b = io.BytesIO()
    np.lib.format.write_array(b, a)
    return b.getvalue()


def main():
    with tarfile.open(SRC) as t:
        members = {m.name: t.extractfile(m).read() for m in t.getmembers() if m.isfile()}
    hn = json.loads(members[f"{NET}.hn"])
    meta = json.loads(members[f"{NET}.metadata.json"])
    rng = np.random.default_rng(1171)
    q = io.BytesIO()
    with zipfile.ZipFile(q, "w", zipfile.ZIP_STORED) as z:
        def put(layer, key, arr):
            z.writestr(zipfile.ZipInfo(f"{NET}/{layer}/{key}:0.npy", date_time=DATE), npy(arr))

        for full, layer in hn["layers"].items():
            name = full.split("/", 1)[1]
            if layer["type"] in ("input_layer", "output_layer"):
                continue
            mode = "a16_w16" if name == "conv1" else "a8_w8"  # tinycnn.alls gives conv1 16 bits
            layer["quantization_params"] = {"precision_mode": mode}
            bits = 16 if mode == "a16_w16" else 8
            if name in WEIGHTED:
                kshape = layer["params"].get("kernel_shape") or [1, 1, 1, 1]
                if name == "fc1":
                    kshape = [40, 10]
                put(name, "kernel", rng.integers(-127, 128, size=kshape, dtype=np.int8 if bits == 8 else np.int16))
                put(name, "bias", rng.integers(-1000, 1000, size=[kshape[-1]], dtype=np.int32))
                put(name, "weight_bits", np.array(bits, dtype=np.int64))
                put(name, "bias_decomposition", np.array(1, dtype=np.int64))
            put(name, "input_activation_bits", np.array(bits, dtype=np.int64))
            put(name, "output_activation_bits", np.array(bits, dtype=np.int64))
            lo, hi = sorted(rng.normal(0, 3, size=2).round(4))
            put(name, "stats/output_0/stats_limvals", np.array([lo, hi], dtype=np.float32))
        z.writestr(zipfile.ZipInfo("params_kind.npy", date_time=DATE), npy(np.array([2], dtype=np.int64)))
    meta["state"] = "quantized_model"
    meta["params"] = f"{NET}.q.npz"
    out = [
        (f"{NET}.hn", json.dumps(hn, indent=4).encode()),
        (f"{NET}.npz", members[f"{NET}.npz"]),
        (f"{NET}.q.npz", q.getvalue()),
        (f"{NET}.original_model_meta.json", members[f"{NET}.original_model_meta.json"]),
        (f"{NET}.metadata.json", json.dumps(meta).encode()),
    ]
    with tarfile.open(OUT, "w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in out:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = MTIME
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    stats = {}
    for name, snr in SNR.items():
        stats[f"{NET}/{name}/layer_noise_analysis/noise_results/{NET}/output_layer1"] = [snr]
        stats[f"{NET}/{name}/layer_noise_analysis/partial_snr"] = [round(snr + 3.0, 2)]
    noise = {
        "format": "hailo-tools-noise/1", "har": os.path.basename(OUT), "mode": "simple", "dataCount": 16, "batchSize": 2,
        "calibration": {"file": "tinycnn_calib.npy", "shape": [64, 64, 64, 3], "dtype": "float32",
                        "distribution": "integers in 0–255 (image pixels): mean 127.489, std 73.912, range [0.000, 255.000] (tinycnn_calib.npy, 64 entries)"},
        "dfcVersion": "3.33.0", "seconds": 12.5, "finishedAt": "2025-11-02T00:00:00.000Z", "statistics": stats,
    }
    with open(NOISE, "w", encoding="utf-8") as f:
        json.dump(noise, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for f in (OUT, NOISE):
        print(f"{os.path.getsize(f):>9}  {os.path.relpath(f, ROOT)}")


if __name__ == "__main__":
    main()
