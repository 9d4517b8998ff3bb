#!/usr/bin/env python3
# hailo-tools noise-analysis driver. Runs INSIDE the Dataflow Compiler container (never on the
# host), beside driver/hailo_compile.py: loads an optimized (quantized) HAR and runs the DFC's layer
# noise analysis on the calibration set, the Python-API form of `hailo analyze-noise HAR
# --data-path SET [--batch-size N] [--data-count N] [--analyze-mode simple|advanced]`:
#     runner = ClientRunner(har=path)
#     runner.analyze_noise(dataset, batch_size=2, data_count=32[, analyze_mode="advanced"])
# (seen in user scripts and Hailo's own notebooks; the call returns None). The figures land in the
# runner's parameter statistics, `runner.get_params_statistics()`, under keys that contain
# `layer_noise_analysis` (`<layer>/layer_noise_analysis/noise_results/<output>`, `…/snr`,
# `…/partial_snr`: Hailo's Layer Noise Analysis tutorial and optimization diagnostic tool read
# them). This driver copies every such key verbatim, values as lists of floats, into
# hailo-tools-noise.json; interpreting them is the host's job (server/src/core/har/noise.ts).
# --save-har also saves the analysed HAR (the profiler's Accuracy tab reads it).
#
# Exit: 0 the analysis ran or its failure is recorded in the manifest, 2 bad arguments or
# unreadable data, 3 no Dataflow Compiler in this image, 130 interrupted. Lines it adds to the
# console start with "hailo-tools noise:". Python 3.8+, standard library + numpy.
import argparse
import os
import sys
import time
import traceback

from hailo_tools_driver import reexec_in_dfc_python, sayer, write_json

MANIFEST = "hailo-tools-noise.json"
EXIT_USAGE, EXIT_NO_DFC = 2, 3
KEY = "layer_noise_analysis"
MAX_VALUES = 4096


say = sayer("noise")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="hailo_noise.py", description="run the DFC's layer noise analysis on a quantized HAR")
    p.add_argument("--har", required=True, help="the optimized (quantized) HAR")
    p.add_argument("--data", required=True, help="calibration set: .npy (N, H, W, C), or .npz keyed by input layer")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--hw-arch", default=None)
    p.add_argument("--data-count", type=int, default=None)
    p.add_argument("--batch-size", type=int, default=None)
    p.add_argument("--mode", choices=["simple", "advanced"], default=None, help="analyze_mode (default: the DFC's)")
    p.add_argument("--save-har", default=None, help="file name (in --out) for the analysed HAR")
    return p.parse_args(argv)


def import_dfc():
    try:
        from hailo_sdk_client import ClientRunner  # noqa: F401

        return ClientRunner
    except ImportError:
        reexec_in_dfc_python()
        return None


def save(out, data):
    write_json(os.path.join(out, MANIFEST), data)


def as_floats(value):
    import numpy as np

    arr = np.asarray(value, dtype=np.float64).ravel()[:MAX_VALUES]
    return [float(x) if np.isfinite(x) else None for x in arr]


def noise_statistics(stats):
    """Every `layer_noise_analysis` key of get_params_statistics(), flat: {key: [floats]}.

    Two access forms were seen: flat keys (stats.get("<layer>/layer_noise_analysis/snr")) and per
    layer (stats[layer].get("layer_noise_analysis/snr")); both are walked."""
    found = {}

    def walk(prefix, obj, depth):
        if depth > 4:
            return
        if hasattr(obj, "items"):
            items = list(obj.items())
        elif hasattr(obj, "keys"):
            items = [(k, obj[k]) for k in list(obj.keys())]
        else:
            return
        for k, v in items:
            key = "%s/%s" % (prefix, k) if prefix else str(k)
            if hasattr(v, "items") or (hasattr(v, "keys") and not hasattr(v, "shape")):
                walk(key, v, depth + 1)
            elif KEY in key:
                try:
                    found[key] = as_floats(v)
                except (TypeError, ValueError):
                    pass

    walk("", stats, 0)
    return found


def main(argv):
    a = parse_args(argv)
    import numpy as np

    os.makedirs(a.out, exist_ok=True)
    try:
        if a.data.lower().endswith(".npz"):
            with np.load(a.data) as z:
                data = {k: z[k] for k in z.files}
            shape = {k: list(v.shape) for k, v in data.items()}
            count = min(v.shape[0] for v in data.values())
        else:
            data = np.load(a.data, mmap_mode="r")
            shape = list(data.shape)
            count = data.shape[0]
    except Exception as e:
        say("cannot read the data %s: %s: %s" % (a.data, type(e).__name__, e))
        return EXIT_USAGE
    if a.data_count is not None and a.data_count > count:
        say("--data-count %d is more than the %d entries of %s" % (a.data_count, count, os.path.basename(a.data)))
        return EXIT_USAGE
    ClientRunner = import_dfc()
    if ClientRunner is None:
        say("this image has no Dataflow Compiler: hailo_sdk_client is not importable (python %s)" % sys.executable)
        return EXIT_NO_DFC
    try:
        import hailo_sdk_client

        version = getattr(hailo_sdk_client, "__version__", None)
    except Exception:
        version = None
    manifest = {"har": os.path.basename(a.har), "data": shape, "dfcVersion": version, "status": "started"}
    save(a.out, manifest)
    kwargs = {}
    if a.data_count is not None:
        kwargs["data_count"] = a.data_count
    if a.batch_size is not None:
        kwargs["batch_size"] = a.batch_size
    if a.mode is not None:
        kwargs["analyze_mode"] = a.mode
    t = time.time()
    try:
        runner = ClientRunner(**({"har": a.har, "hw_arch": a.hw_arch} if a.hw_arch else {"har": a.har}))
        if not isinstance(data, dict):
            data = np.asarray(data[: a.data_count] if a.data_count else data)
        say("analyze_noise(%s, %s)" % (shape, ", ".join("%s=%r" % kv for kv in sorted(kwargs.items()))))
        runner.analyze_noise(data, **kwargs)
        stats = noise_statistics(runner.get_params_statistics())
        manifest.update(status="ok", seconds=round(time.time() - t, 3), statistics=stats, kwargs=kwargs)
        say("%d noise figure(s) in %.1f s" % (len(stats), time.time() - t))
        if a.save_har:
            target = os.path.join(a.out, a.save_har)
            runner.save_har(target + ".partial")
            os.replace(target + ".partial", target)
            manifest["savedHar"] = a.save_har
    except KeyboardInterrupt:
        return 130
    except Exception as e:
        traceback.print_exc()
        sys.stderr.flush()
        manifest.update(status="crashed", seconds=round(time.time() - t, 3), error=type(e).__name__, message=str(e)[:2000], kwargs=kwargs)
        say("%s: %s" % (type(e).__name__, str(e)[:400]))
    save(a.out, manifest)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
