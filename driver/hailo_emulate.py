#!/usr/bin/env python3
# hailo-tools emulate driver. Runs INSIDE the Dataflow Compiler container (never on the host),
# beside driver/hailo_compile.py: loads a HAR and runs the same inputs through each DFC emulator
# context the caller names (docs/research/dfc-flow.md#python-api:
#     with runner.infer_context(InferenceContext.SDK_QUANTIZED) as ctx: y = runner.infer(ctx, x)
# ), writing every context's outputs as .npy and what happened in hailo-tools-emulate.json:
#   {"har": ..., "inputs": [N, ...], "outputLayers": [...],
#    "contexts": {"quantized": {"status": "ok", "seconds": s, "outputs": [{"name", "file", "shape"}]},
#                 "bit_exact": {"status": "crashed", "error": "InferenceError", "message": "..."}}}
# A context that raises is recorded as crashed (its traceback printed as Python prints it) and the
# next context still runs: one crashing context (a8_w8 SDK_BIT_EXACT `pow`, docs/research/dfc-flow.md#error-classes) must
# not hide the others. Lines it adds to the console start with "hailo-tools emulate:".
#
# Exit: 0 every requested context was tried, 2 bad arguments or unreadable inputs, 3 no Dataflow
# Compiler in this image, 130 interrupted. Python 3.8+, standard library + numpy.
import argparse
import json
import os
import sys
import time
import traceback

from hailo_tools_driver import reexec_in_dfc_python, sayer, write_json

MANIFEST = "hailo-tools-emulate.json"
CONTEXTS = {"native": "SDK_NATIVE", "fp_optimized": "SDK_FP_OPTIMIZED", "quantized": "SDK_QUANTIZED", "bit_exact": "SDK_BIT_EXACT"}
EXIT_USAGE, EXIT_NO_DFC = 2, 3


say = sayer("emulate")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="hailo_emulate.py", description="run inputs through the DFC emulator's inference contexts")
    p.add_argument("--har", required=True, help="the (optimized) HAR")
    p.add_argument("--inputs", required=True, help=".npy (N, H, W, C) for a single input, or .npz keyed by input layer")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--hw-arch", default=None)
    p.add_argument("--context", action="append", default=[], choices=sorted(CONTEXTS), help="context to run (repeat); default: all")
    return p.parse_args(argv)


def import_dfc():
    try:
        from hailo_sdk_client import ClientRunner, InferenceContext  # noqa: F401

        return ClientRunner, InferenceContext
    except ImportError:
        reexec_in_dfc_python()
        return None, None


class Manifest(object):
    def __init__(self, out, data):
        self.path = os.path.join(out, MANIFEST)
        self.data = data
        self.save()

    def save(self):
        write_json(self.path, self.data)


def output_layers(runner):
    hn = runner.get_hn()
    if isinstance(hn, (str, bytes)):
        hn = json.loads(hn)
    order = (hn.get("net_params") or {}).get("output_layers_order") or []
    if order:
        return list(order)
    return [name for name, layer in (hn.get("layers") or {}).items() if layer.get("type") == "output_layer"]


def main(argv):
    a = parse_args(argv)
    import numpy as np

    os.makedirs(a.out, exist_ok=True)
    try:
        if a.inputs.lower().endswith(".npz"):
            with np.load(a.inputs) as z:
                x = {k: z[k] for k in z.files}
            shape = {k: list(v.shape) for k, v in x.items()}
        else:
            x = np.load(a.inputs)
            shape = list(x.shape)
    except Exception as e:
        say("cannot read the inputs %s: %s: %s" % (a.inputs, type(e).__name__, e))
        return EXIT_USAGE
    ClientRunner, InferenceContext = import_dfc()
    if ClientRunner is None:
        say("this image has no Dataflow Compiler: hailo_sdk_client is not importable (python %s)" % sys.executable)
        return EXIT_NO_DFC
    wanted = a.context or ["native", "fp_optimized", "quantized", "bit_exact"]
    kwargs = {"har": a.har}
    if a.hw_arch:
        kwargs["hw_arch"] = a.hw_arch
    runner = ClientRunner(**kwargs)
    names = output_layers(runner)
    manifest = Manifest(a.out, {"har": os.path.basename(a.har), "inputs": shape, "outputLayers": names, "contexts": {}})
    say("inputs %s, contexts %s" % (shape, ", ".join(wanted)))
    try:
        for key in wanted:
            t = time.time()
            say("%s: infer" % CONTEXTS[key])
            try:
                with runner.infer_context(getattr(InferenceContext, CONTEXTS[key])) as ctx:
                    y = runner.infer(ctx, x)
                results = list(y) if isinstance(y, (list, tuple)) else [y]
                folder = os.path.join(a.out, key)
                os.makedirs(folder, exist_ok=True)
                outputs = []
                for i, arr in enumerate(results):
                    arr = np.asarray(arr)
                    name = names[i] if i < len(names) else "output%d" % i
                    file = os.path.join(key, "%d.npy" % i)
                    np.save(os.path.join(a.out, file + ".partial.npy"), arr)
                    os.replace(os.path.join(a.out, file + ".partial.npy"), os.path.join(a.out, file))
                    outputs.append({"name": name, "file": file, "shape": list(arr.shape), "dtype": str(arr.dtype)})
                manifest.data["contexts"][key] = {"status": "ok", "seconds": round(time.time() - t, 3), "outputs": outputs}
                say("%s: %d output(s) in %.1f s" % (CONTEXTS[key], len(outputs), time.time() - t))
            except KeyboardInterrupt:
                raise
            except Exception as e:
                traceback.print_exc()
                sys.stderr.flush()
                manifest.data["contexts"][key] = {"status": "crashed", "seconds": round(time.time() - t, 3), "error": type(e).__name__, "message": str(e)[:400]}
                say("%s: %s: %s" % (CONTEXTS[key], type(e).__name__, str(e)[:400]))
            manifest.save()
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
