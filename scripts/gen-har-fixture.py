#!/usr/bin/python3
"""Generate test/fixtures/har/: a small HAR (tar with an .hn JSON) and the ONNX it describes.

The real DFC is not available here, so the HN is written the way DFC 3.33 wrote the real sample in
../shared/corpus/har (see docs/research/hn-har-format.md): PAX tar with `<net>.hn`, `<net>.npz`,
`<net>.original_model_meta.json`, `<net>.metadata.json`; layers keyed `<net>/<layer>`; NHWC shapes with
batch -1; `output_shapes` repeated once per consumer; `original_names` = ONNX node names (graph input /
output names for I/O layers); fused nodes listed together (Conv+BN+Relu -> conv). The archive is named
differently from the network (`tinycnn_hailo_model.har` holds `tinycnn.*`), like the real one.

    /usr/bin/python3 scripts/gen-har-fixture.py      (needs python3-onnx; run gen-onnx-fixtures.py first)
"""
import io
import json
import os
import shutil
import tarfile
import zipfile

import numpy as np
import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "test", "fixtures", "onnx", "cnn.onnx")
OUT = os.path.join(ROOT, "test", "fixtures", "har")
NET = "tinycnn"

# layer name, HN type, ONNX source nodes (or graph input/output names), params
LAYERS = [
    ("input_layer1", "input_layer", ["input"], {}),
    ("conv1", "conv", ["/backbone/conv1/Conv", "/backbone/bn1/BatchNormalization", "/backbone/Relu"],
     {"kernel_shape": [3, 3, 3, 8], "strides": [1, 2, 2, 1], "padding": "SAME_TENSORFLOW", "batch_norm": True, "activation": "relu"}),
    ("maxpool1", "maxpool", ["/backbone/MaxPool"], {"kernel_shape": [1, 3, 3, 1], "strides": [1, 2, 2, 1]}),
    ("activation1", "activation", ["/backbone/act/Sigmoid", "/backbone/act/Mul"], {"activation": "silu"}),
    ("dw1", "dw", ["/backbone/dw/Conv"], {"kernel_shape": [3, 3, 8, 1], "strides": [1, 1, 1, 1], "padding": "SAME", "activation": "linear"}),
    ("conv2", "conv", ["/backbone/pw/Conv"], {"kernel_shape": [1, 1, 8, 16], "activation": "linear"}),
    ("conv3", "conv", ["/backbone/down/Conv"], {"kernel_shape": [3, 3, 16, 16], "strides": [1, 2, 2, 1], "activation": "linear"}),
    ("deconv1", "deconv", ["/neck/up/ConvTranspose"], {"kernel_shape": [2, 2, 16, 8], "strides": [1, 2, 2, 1]}),
    ("resize1", "resize", ["/neck/Resize"], {"method": "nearest_neighbor"}),
    ("concat1", "concat", ["/neck/Concat"], {"concat_axis": 3}),
    ("external_pad1", "external_pad", ["/neck/Pad"], {}),
    ("avgpool1", "avgpool", ["/neck/AveragePool"], {"kernel_shape": [1, 3, 3, 1], "strides": [1, 2, 2, 1]}),
    ("global_avg_pool1", "global_avg_pool", ["/head/GlobalAveragePool"], {}),
    ("fc1", "dense", ["/head/Flatten", "/head/fc/Gemm"], {"activation": "linear"}),
    ("output_layer1", "output_layer", ["logits"], {}),
]
# edges (producer -> consumers), by layer name
EDGES = {
    "input_layer1": ["conv1"], "conv1": ["maxpool1"], "maxpool1": ["activation1"], "activation1": ["dw1"],
    "dw1": ["conv2"], "conv2": ["conv3", "concat1"], "conv3": ["deconv1", "resize1"], "deconv1": ["concat1"],
    "resize1": ["concat1"], "concat1": ["external_pad1"], "external_pad1": ["avgpool1"],
    "avgpool1": ["global_avg_pool1"], "global_avg_pool1": ["fc1"], "fc1": ["output_layer1"], "output_layer1": [],
}


def nhwc(dims):
    if len(dims) == 4:
        n, c, h, w = dims
        return [-1, h, w, c]
    if len(dims) == 2:
        return [-1, 1, 1, dims[1]]
    raise ValueError(dims)


def main():
    os.makedirs(OUT, exist_ok=True)
    model = onnx.shape_inference.infer_shapes(onnx.load(SRC))
    g = model.graph
    shapes = {}
    for v in list(g.input) + list(g.value_info) + list(g.output):
        shapes[v.name] = [d.dim_value for d in v.type.tensor_type.shape.dim]
    out_of = {n.name: n.output[0] for n in g.node}
    node_names = {n.name for n in g.node}

    def out_shape(sources):
        last = sources[-1]
        return nhwc(shapes[out_of[last]] if last in node_names else shapes[last])

    inputs_of = {name: [p for p, cs in EDGES.items() if name in cs] for name, *_ in LAYERS}
    layer_out = {name: out_shape(src) for name, _, src, _ in LAYERS}
    layers = {}
    for name, typ, src, params in LAYERS:
        ins = inputs_of[name]
        outs = EDGES[name]
        entry = {
            "type": typ,
            "input": [f"{NET}/{p}" for p in ins],
            "output": [f"{NET}/{c}" for c in outs],
            "input_shapes": [layer_out[p] for p in ins] if ins else [layer_out[name]],
            "output_shapes": [layer_out[name] for _ in outs] if outs else [layer_out[ins[0]]],
            "original_names": src,
            "compilation_params": {},
            "quantization_params": {},
        }
        if typ in ("input_layer", "output_layer"):
            entry.update({"transposed": False, "engine": "nn_core", "io_type": "standard"})
        else:
            entry["params"] = params
        layers[f"{NET}/{name}"] = entry
    hn = {
        "name": NET,
        "net_params": {
            "version": "1.0", "stage": "HN", "clusters_placement": [[]], "clusters_to_skip": [],
            "output_layers_order": [f"{NET}/fc1"], "is_transformer": False, "transposed_net": False,
            "net_scopes": [NET], "lora_adapters": [],
        },
        "layers": layers,
    }
    npz = io.BytesIO()  # an npz is a stored zip of .npy files; fixed timestamps keep the fixture reproducible
    with zipfile.ZipFile(npz, "w", zipfile.ZIP_STORED) as z:
        arr = io.BytesIO()
        np.lib.format.write_array(arr, np.zeros((3, 3, 3, 8), np.float32))
        z.writestr(zipfile.ZipInfo(f"{NET}/conv1/kernel:0.npy", date_time=(2025, 11, 2, 0, 0, 0)), arr.getvalue())
    meta = {
        "state": "hailo_model", "force_weightless_model": False, "model_name": NET, "sdk_version": "3.33.0",
        "hw_arch": "hailo8l", "hn": f"{NET}.hn", "params": f"{NET}.npz", "original_model_meta": f"{NET}.original_model_meta.json",
    }
    original = {
        "original_model_path": f"/local/shared_with_docker/{NET}.onnx", "ir_version": model.ir_version,
        "opset_imports": [[o.domain, o.version] for o in model.opset_import], "framework": "ONNX",
        "start_nodes_shapes": {"input": shapes["input"]}, "parsing_report": {"layers": {}},
    }
    members = [
        (f"{NET}.hn", json.dumps(hn, indent=4).encode()),
        (f"{NET}.npz", npz.getvalue()),
        (f"{NET}.original_model_meta.json", json.dumps(original).encode()),
        (f"{NET}.metadata.json", json.dumps(meta).encode()),
    ]
    har = os.path.join(OUT, f"{NET}_hailo_model.har")
    with tarfile.open(har, "w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1762114897.1074162  # a float mtime makes tarfile write a pax header per member, like the real HAR
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    shutil.copyfile(SRC, os.path.join(OUT, f"{NET}.onnx"))
    with open(os.path.join(OUT, "broken.har"), "wb") as fh:
        fh.write(b"this is not a tar archive" * 40)
    for f in sorted(os.listdir(OUT)):
        print(f"{os.path.getsize(os.path.join(OUT, f)):>9}  {f}")


if __name__ == "__main__":
    main()
