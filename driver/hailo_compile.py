#!/usr/bin/env python3
# hailo-tools compile driver. Runs INSIDE the Dataflow Compiler container (never on the host):
# parse -> optimize -> compile through the DFC Python API (hailo_sdk_client.ClientRunner), or the
# `hailo` CLI when the API is not importable. The DFC's own console output passes through
# untouched; this script adds only lines starting with "hailo-tools driver:".
#
# After each stage it records the stage in hailo-tools-result.json in the output folder; the host
# moves an output into place only when its stage is recorded there (outputs are written under a
# temporary name and renamed, so a recorded output is complete).
#
# Exit: 0 all stages done, 1 the DFC failed (its traceback printed as Python prints it), 2 bad
# arguments or unreadable calibration data, 3 no Dataflow Compiler in this image, 130 interrupted.
# Facts used: docs/research/dfc-flow.md#python-api, docs/research/dfc-flow.md#command-forms (API and CLI forms), docs/research/mtmd-contract.md#contract
# (add_external_file, seen only in GenAI pipelines -- whether a vision-only compile keeps the
# resource is unverified, so the host checks the HEF afterwards).
# Python 3.8+ (old suites ship 3.8), standard library + numpy (present in every DFC image).
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import traceback

MANIFEST = "hailo-tools-result.json"
HAILO_CONFIG = "hailo-config.json"
EXIT_DFC, EXIT_USAGE, EXIT_NO_DFC = 1, 2, 3
# Where the DFC's virtualenv lives: Hailo's AI SW Suite image (section 7.1) and self-built images (3.1).
DFC_PYTHONS = ["/local/workspace/hailo_virtualenv/bin/python", "/opt/dfc/bin/python"]
REEXEC_FLAG = "HAILO_TOOLS_DRIVER_REEXEC"


def say(message):
    sys.stdout.write("hailo-tools driver: %s\n" % message)
    sys.stdout.flush()


def parse_args(argv):
    p = argparse.ArgumentParser(prog="hailo_compile.py", description="parse, optimize and compile a model with the Hailo DFC")
    p.add_argument("--model", required=True, help=".onnx or .har")
    p.add_argument("--net", required=True, help="network name (the model's base name)")
    p.add_argument("--hw-arch", required=True)
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--model-script", help=".alls model script")
    p.add_argument("--calib", help="calibration set (.npy NHWC, or .npz keyed by input layer)")
    p.add_argument("--hailo-config", help="hailo-config.json to embed into the HEF")
    p.add_argument("--start-node", action="append", default=[], help="ONNX start node name (repeat)")
    p.add_argument("--end-node", action="append", default=[], help="ONNX end node name (repeat)")
    p.add_argument("--mode", choices=["auto", "api", "cli"], default="auto")
    return p.parse_args(argv)


class Manifest(object):
    """hailo-tools-result.json, rewritten atomically after every change."""

    def __init__(self, out, net):
        self.path = os.path.join(out, MANIFEST)
        self.data = {"net": net, "stages": {}}

    def set(self, key, value):
        self.data[key] = value
        self.save()

    def stage(self, name, seconds, output):
        self.data["stages"][name] = {"status": "ok", "seconds": round(seconds, 3), "output": output}
        self.save()
        say("%s finished in %.1f s -> %s" % (name, seconds, output))

    def save(self):
        tmp = self.path + ".partial"
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=1)
        os.replace(tmp, self.path)


def partial_path(final):
    folder, name = os.path.split(final)
    return os.path.join(folder, ".partial." + name)


def dfc_python_elsewhere():
    """A python that can import hailo_sdk_client, when this one cannot (python3 on PATH is often not the venv)."""
    if os.environ.get(REEXEC_FLAG):
        return None
    candidates = list(DFC_PYTHONS)
    venv = os.environ.get("VIRTUAL_ENV")
    if venv:
        candidates.insert(0, os.path.join(venv, "bin", "python"))
    me = os.path.realpath(sys.executable)
    for py in candidates:
        if os.path.isfile(py) and os.access(py, os.X_OK) and os.path.realpath(py) != me:
            return py
    return None


def choose_mode(requested):
    if requested in ("auto", "api"):
        try:
            import hailo_sdk_client  # noqa: F401

            return "api"
        except ImportError:
            other = dfc_python_elsewhere()
            if other:
                os.environ[REEXEC_FLAG] = "1"
                os.execv(other, [other] + sys.argv)
            if requested == "api":
                return None
    if shutil.which("hailo"):
        return "cli"
    return None


def load_calibration(path):
    import numpy as np

    try:
        if path.lower().endswith(".npz"):
            with np.load(path) as z:
                data = {k: z[k] for k in z.files}
            shapes = {k: list(v.shape) for k, v in data.items()}
        else:
            data = np.load(path)
            shapes = list(data.shape)
    except Exception as e:  # an unreadable file is the user's input, not a DFC failure
        say("cannot read the calibration set %s: %s: %s" % (path, type(e).__name__, e))
        sys.exit(EXIT_USAGE)
    say("calibration set %s, shape %s" % (os.path.basename(path), shapes))
    return data, shapes


def input_layers(runner):
    hn = runner.get_hn()
    if isinstance(hn, (str, bytes)):
        hn = json.loads(hn)
    layers = hn.get("layers", {})
    return [(name, layer) for name, layer in layers.items() if layer.get("type") == "input_layer"]


def random_calibration(runner):
    """What `hailo optimize --use-random-calib-set` does: the HEF runs, its accuracy means nothing."""
    import numpy as np

    data, shapes = {}, {}
    for name, layer in input_layers(runner):
        shape = [64] + [int(d) for d in layer["output_shapes"][0][1:]]
        data[name] = np.random.rand(*shape).astype(np.float32)
        shapes[name] = shape
    say("WARNING: no calibration set given; optimizing with random data %s -- the HEF will run, but its accuracy is meaningless" % shapes)
    if len(data) == 1:
        only = list(data)[0]
        return data[only], shapes[only]
    return data, shapes


def embed_config(runner, path):
    """Adds hailo-config.json as an external resource of the HEF (llama.cpp's mtmd loader reads it there)."""
    if hasattr(runner, "add_external_file"):
        method = "add_external_file"
        call = lambda: runner.add_external_file(HAILO_CONFIG, path)  # noqa: E731
    elif hasattr(runner, "add_external_resources"):
        method = "add_external_resources"
        call = lambda: runner.add_external_resources({"external_files": {HAILO_CONFIG: path}})  # noqa: E731
    else:
        say("WARNING: this DFC's ClientRunner has no add_external_file; %s is not embedded" % HAILO_CONFIG)
        return {"requested": True, "embedded": False, "method": None, "detail": "ClientRunner has no add_external_file"}
    try:
        call()
    except Exception as e:
        traceback.print_exc()
        say("WARNING: %s(%s) failed: %s: %s; the HEF will not carry it" % (method, HAILO_CONFIG, type(e).__name__, e))
        return {"requested": True, "embedded": False, "method": method, "detail": "%s: %s" % (type(e).__name__, e)}
    say("%s embedded with %s" % (HAILO_CONFIG, method))
    return {"requested": True, "embedded": True, "method": method}


def run_api(a, manifest, outputs):
    from hailo_sdk_client import ClientRunner

    is_onnx = a.model.lower().endswith(".onnx")
    if is_onnx:
        say("parse: translate_onnx_model(%s, %s, start_node_names=%s, end_node_names=%s)" % (a.model, a.net, a.start_node or None, a.end_node or None))
        t = time.time()
        runner = ClientRunner(hw_arch=a.hw_arch)
        kwargs = {}
        if a.start_node:
            kwargs["start_node_names"] = a.start_node
        if a.end_node:
            kwargs["end_node_names"] = a.end_node
        runner.translate_onnx_model(a.model, a.net, **kwargs)
    else:
        say("loading %s" % a.model)
        runner = ClientRunner(har=a.model, hw_arch=a.hw_arch)
    if a.hailo_config:
        manifest.set("hailoConfig", embed_config(runner, a.hailo_config))
    if is_onnx:
        runner.save_har(partial_path(outputs["har"]))
        os.replace(partial_path(outputs["har"]), outputs["har"])
        manifest.stage("parse", time.time() - t, os.path.basename(outputs["har"]))

    t = time.time()
    if a.model_script:
        say("optimize: load_model_script(%s)" % a.model_script)
        runner.load_model_script(a.model_script)
    if a.calib:
        calib, shapes = load_calibration(a.calib)
        manifest.set("calibration", {"source": "file", "shape": shapes})
    else:
        calib, shapes = random_calibration(runner)
        manifest.set("calibration", {"source": "random", "shape": shapes})
    say("optimize: optimize(calibration)")
    runner.optimize(calib)
    runner.save_har(partial_path(outputs["optimizedHar"]))
    os.replace(partial_path(outputs["optimizedHar"]), outputs["optimizedHar"])
    manifest.stage("optimize", time.time() - t, os.path.basename(outputs["optimizedHar"]))

    t = time.time()
    say("compile: compile()")
    hef = runner.compile()
    if not hef:
        say("compile() returned no HEF bytes")
        return EXIT_DFC
    with open(partial_path(outputs["hef"]), "wb") as f:
        f.write(hef)
    os.replace(partial_path(outputs["hef"]), outputs["hef"])
    manifest.stage("compile", time.time() - t, os.path.basename(outputs["hef"]))
    return 0


def run_cli(a, manifest, outputs):
    """The `hailo` CLI forms of docs/research/dfc-flow.md#command-forms, run in the output folder (where they write)."""

    def hailo(args):
        say("running: hailo %s" % " ".join(args))
        # stdin closed: `hailo parser` asks (y/n) without -y, and a closed stdin fails the prompt.
        return subprocess.run(["hailo"] + args, cwd=a.out, stdin=subprocess.DEVNULL).returncode

    har = outputs["har"]
    if a.model.lower().endswith(".onnx"):
        t = time.time()
        args = ["parser", "onnx", a.model, "--hw-arch", a.hw_arch, "--net-name", a.net, "--har-path", har, "-y"]
        if a.start_node:
            args += ["--start-node-names"] + a.start_node
        if a.end_node:
            args += ["--end-node-names"] + a.end_node
        if hailo(args) != 0 or not os.path.isfile(har):
            return EXIT_DFC
        manifest.stage("parse", time.time() - t, os.path.basename(har))
    else:
        har = a.model
    if a.hailo_config:
        say("WARNING: the hailo CLI has no known option to embed %s; use an image with hailo_sdk_client" % HAILO_CONFIG)
        manifest.set("hailoConfig", {"requested": True, "embedded": False, "method": None, "detail": "the hailo CLI cannot embed external files"})

    t = time.time()
    args = ["optimize", har, "--hw-arch", a.hw_arch]
    if a.model_script:
        args += ["--model-script", a.model_script]
    args += ["--calib-set-path", a.calib] if a.calib else ["--use-random-calib-set"]
    manifest.set("calibration", {"source": "file" if a.calib else "random"})
    if hailo(args) != 0:
        return EXIT_DFC
    # `hailo optimize M.har` writes M_optimized.har; move it under our name if it landed elsewhere.
    produced = os.path.join(a.out, os.path.splitext(os.path.basename(har))[0] + "_optimized.har")
    if not os.path.isfile(produced):
        return EXIT_DFC
    if produced != outputs["optimizedHar"]:
        os.replace(produced, outputs["optimizedHar"])
    manifest.stage("optimize", time.time() - t, os.path.basename(outputs["optimizedHar"]))

    t = time.time()
    if hailo(["compiler", outputs["optimizedHar"], "--hw-arch", a.hw_arch]) != 0:
        return EXIT_DFC
    produced = os.path.join(a.out, a.net + ".hef")
    if not os.path.isfile(produced) or os.path.getsize(produced) == 0:
        return EXIT_DFC
    manifest.stage("compile", time.time() - t, os.path.basename(produced))
    return 0


def main(argv):
    a = parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    mode = choose_mode(a.mode)
    if mode is None:
        say("this image has no Dataflow Compiler: hailo_sdk_client is not importable (python %s) and there is no `hailo` command" % sys.executable)
        return EXIT_NO_DFC
    outputs = {
        "har": os.path.join(a.out, a.net + ".har"),
        "optimizedHar": os.path.join(a.out, a.net + "_optimized.har"),
        "hef": os.path.join(a.out, a.net + ".hef"),
    }
    manifest = Manifest(a.out, a.net)
    manifest.set("mode", mode)
    say("mode %s, hw_arch %s, model %s" % (mode, a.hw_arch, a.model))
    try:
        return (run_api if mode == "api" else run_cli)(a, manifest, outputs)
    except KeyboardInterrupt:
        return 130
    except Exception:
        # Exactly what Python would print for an uncaught exception (chained causes included).
        traceback.print_exc()
        sys.stderr.flush()
        return EXIT_DFC


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
