#!/usr/bin/env python3
# hailo-tools inter-layer driver. Runs INSIDE the Dataflow Compiler container (never on the host):
# loads a HAR and runs the inputs through one emulator context, keeping every layer's output, for
# the first-divergent-layer comparison on the host. The DFC has no public call for this; the only
# one seen is the one Hailo's own optimization diagnostic tool uses (Hailo-Application-Code-Examples,
# basic_optimization_diagnostic_tool, ClippingInspector, DFC 3.25):
#     with runner.infer_context(InferenceContext.SDK_FP_OPTIMIZED) as ctx:
#         model = runner.get_keras_model(ctx)._model
#         model.compile(save_interlayer=layer_names)
#         model(data); model.interlayer_tensors   # {layer: tensor, or a list for several outputs}
# It is a private attribute (`_model`): a DFC that changed it fails here, and the manifest says so
# (status "crashed" with the exception) rather than the host guessing. Outputs: one .npy per layer
# (the first output of a layer with several) and hailo-tools-interlayer.json.
#
# Exit: 0 ran or the failure is recorded, 2 bad arguments or unreadable inputs, 3 no Dataflow
# Compiler, 130 interrupted. Lines it adds start with "hailo-tools interlayer:".
import argparse
import os
import sys
import traceback

from hailo_tools_driver import reexec_in_dfc_python, sayer, write_json

MANIFEST = "hailo-tools-interlayer.json"
CONTEXTS = {"native": "SDK_NATIVE", "fp_optimized": "SDK_FP_OPTIMIZED", "quantized": "SDK_QUANTIZED"}


say = sayer("interlayer")


def import_dfc():
    try:
        from hailo_sdk_client import ClientRunner, InferenceContext  # noqa: F401

        return ClientRunner, InferenceContext
    except ImportError:
        reexec_in_dfc_python()
        return None, None


def save(out, data):
    write_json(os.path.join(out, MANIFEST), data)


def main(argv):
    p = argparse.ArgumentParser(prog="hailo_interlayer.py")
    p.add_argument("--har", required=True)
    p.add_argument("--inputs", required=True, help=".npy (N, H, W, C)")
    p.add_argument("--out", required=True)
    p.add_argument("--context", choices=sorted(CONTEXTS), default="quantized")
    p.add_argument("--layer", action="append", default=[], help="scoped layer name (repeat)")
    a = p.parse_args(argv)
    import numpy as np

    os.makedirs(a.out, exist_ok=True)
    try:
        x = np.load(a.inputs)
    except Exception as e:
        say("cannot read the inputs %s: %s: %s" % (a.inputs, type(e).__name__, e))
        return 2
    ClientRunner, InferenceContext = import_dfc()
    if ClientRunner is None:
        say("this image has no Dataflow Compiler: hailo_sdk_client is not importable")
        return 3
    manifest = {"context": a.context, "inputs": list(x.shape), "layers": {}, "status": "started"}
    save(a.out, manifest)
    try:
        runner = ClientRunner(har=a.har)
        with runner.infer_context(getattr(InferenceContext, CONTEXTS[a.context])) as ctx:
            model = runner.get_keras_model(ctx)._model
            model.compile(save_interlayer=list(a.layer))
            model(x)
            tensors = model.interlayer_tensors
        for i, (name, t) in enumerate(tensors.items()):
            arr = np.asarray(t[0] if isinstance(t, (list, tuple)) else t, dtype=np.float32)
            file = "%d.npy" % i
            np.save(os.path.join(a.out, file), arr)
            manifest["layers"][str(name)] = {"file": file, "shape": list(arr.shape)}
        manifest["status"] = "ok"
        say("%d layer output(s) of %s" % (len(manifest["layers"]), CONTEXTS[a.context]))
    except KeyboardInterrupt:
        return 130
    except Exception as e:
        traceback.print_exc()
        sys.stderr.flush()
        manifest.update(status="crashed", error=type(e).__name__, message=str(e)[:2000])
        say("%s: %s" % (type(e).__name__, str(e)[:400]))
    save(a.out, manifest)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
