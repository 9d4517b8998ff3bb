# Fake hailo_sdk_client for the compile tests: the DFC cannot run here. It mirrors the public
# ClientRunner calls the driver makes (dfc-flow.md 3.2/7.2: ClientRunner(hw_arch=, har=),
# translate_onnx_model(model, net_name, start_node_names=, end_node_names=, net_input_shapes=, ...)
# returning (hn, params), load_model_script(model_script, append=False), optimize(calib_data),
# compile() returning HEF bytes, save_har(har_path), get_hn(), add_external_file(name, path)) and
# replays a DFC console log, split into its stages at the DFC's own stage markers (7.3).
#
# The scenario (JSON, path in $HAILO_FAKE_DFC; see test/fixtures/compile/README.md):
#   log        a DFC console log (path relative to the scenario file); its lines before the first
#              stage marker (the CLI header) print when a ClientRunner is made
#   failAt     translate_onnx_model | load_model_script | optimize | compile: print that stage's part
#              of the log up to its last traceback, then raise the exception the log ends with
#   oomAt      a method that SIGKILLs this process after printing half its part (the OOM killer)
#   progress   {"at": method, "entries": N, "intervalMs": T}: tqdm "Calibration" frames with \r
#   delay      {"at": method, "ms": N}: that method first waits N ms (a slow stage; "infer": a slow emulator)
#   externalFile  false: this ClientRunner has no add_external_file (older DFC)
#   emulate    {"SDK_QUANTIZED": {"outputs": ["a.npy", ...]}, "SDK_BIT_EXACT": {"raise": "InferenceError",
#              "message": "..."}}: runner.infer(ctx, x) inside infer_context(InferenceContext.X) replays
#              those arrays (one per output layer; their first axis must equal x's) or raises that
#              exception (the a8_w8 SDK_BIT_EXACT `pow` failure, dfc-flow.md 3.5); a context not
#              listed raises as the DFC does for a HAR that lacks what the context needs.
#   noise      {"statistics": {"conv3": {"noise_results/fc1": [4.2], "partial_snr": [9.1]}},
#              "raise": "Exception name", "message": "..."}: runner.analyze_noise(dataset, data_count=,
#              batch_size=, analyze_mode=) returns None, as the DFC's does, and fills the runner's
#              parameter statistics: get_params_statistics() then holds float32 arrays under
#              "<net>/<layer>/layer_noise_analysis/<key>" (output names in noise_results/ scoped
#              too), readable flat (stats.get(key)) and per layer (stats[layer].get(rest)) - the two
#              forms Hailo's tutorial and diagnostic tool use. Or it raises that exception.
#   interlayer {"SDK_QUANTIZED": {"conv1": "conv1.npy", ...}}: runner.get_keras_model(ctx)._model (the
#              private path Hailo's diagnostic tool uses): compile(save_interlayer=[names]) then
#              model(x) fills interlayer_tensors {"<net>/<layer>": array} from those files, for the
#              names asked (all listed when none is); a context not listed raises as for infer.
#   byScript   [{"match": regex, ...any of the keys above}]: when the model script loaded with
#              load_model_script matches, those keys replace the scenario's from then on (the real DFC
#              5.3.0 fails optimize on a16_w4: {"match": "a16_w4", "failAt": "optimize", "log": …}).
#              A HAR saved after a script was loaded keeps it (member <net>.fake_model_script.alls —
#              a member of this fake only), and a ClientRunner(har=…) applies the rules to it, so the
#              emulator of a variant replays that variant's outputs.
#   parser     {"refuse": [{"node"|"op", "raise", "message", "in"}], "delayMs"}: translate_onnx_model reads the
#              ONNX, walks the ancestors of end_node_names and raises from a function named "in" when a
#              refused node is among them (_parser.py; the parser bisection's stand-in)
# Every call is appended to $HAILO_FAKE_DFC_CALLS as one JSON line {"method", "args", "kwargs"}.
import json
import os
import re
import signal
import sys
import tarfile
import time
import io

_OPTIMIZE = re.compile(r"Starting Model Optimization|Loading model script commands")
_COMPILE = re.compile(r"Starting Hailo allocation and compilation flow|Compiling network")
_SECTION_OF = {"translate_onnx_model": "parse", "load_model_script": "optimize", "optimize": "optimize", "compile": "compile"}


def _scenario():
    path = os.environ.get("HAILO_FAKE_DFC")
    if not path:
        return {}, None
    with open(path) as f:
        return json.load(f), os.path.dirname(os.path.abspath(path))


_SCENARIO, _BASE = _scenario()
# The DFC release the fake claims to be (hailo_sdk_client.__version__), when the scenario names one.
__version__ = _SCENARIO.get("dfcVersion")
_REPO = os.environ.get("HAILO_FAKE_REPO", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..")))


_TRANSLATE = re.compile(r"Translation started on ")


def _sections():
    """The log in parts: header (printed when a ClientRunner is made), parse, optimize, compile."""
    sections = {"header": [], "parse": [], "optimize": [], "compile": []}
    log = _SCENARIO.get("log")
    if not log:
        return sections
    with open(os.path.join(_BASE, log), newline="") as f:
        text = f.read()
    current = "parse"
    for line in text.splitlines(True):
        if current == "parse" and _OPTIMIZE.search(line):
            current = "optimize"
        if current != "compile" and _COMPILE.search(line):
            current = "compile"
        sections[current].append(line)
    parse = sections["parse"]
    start = next((i for i, l in enumerate(parse) if _TRANSLATE.search(l)), len(parse))
    sections["header"], sections["parse"] = parse[:start], parse[start:]
    return sections


_SECTIONS = _sections()
_SCRIPT_MEMBER = ".fake_model_script.alls"


def _apply_script_rules(text):
    """The scenario's byScript rules whose pattern the model script matches replace its keys."""
    global _SECTIONS
    for rule in _SCENARIO.get("byScript") or []:
        if re.search(rule["match"], text):
            _SCENARIO.update({k: v for k, v in rule.items() if k != "match"})
            if "log" in rule:
                _SECTIONS = _sections()


_MOUNTS = sorted(json.loads(os.environ.get("HAILO_FAKE_MOUNTS", "[]")), key=lambda m: -len(m[0]))


def _container_path(v):
    """A host path as the program would see it inside the container (the fake docker maps them)."""
    for source, target in _MOUNTS:
        if v == source or v.startswith(source.rstrip("/") + "/"):
            return target + v[len(source):]
    return v


def _record(method, args, kwargs):
    path = os.environ.get("HAILO_FAKE_DFC_CALLS")
    if not path:
        return

    def plain(v):
        if isinstance(v, str):
            return _container_path(v)
        if hasattr(v, "shape") and hasattr(v, "dtype"):
            return {"ndarray": list(v.shape), "dtype": str(v.dtype)}
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return v
    with open(path, "a") as f:
        f.write(json.dumps({"method": method, "args": plain(list(args)), "kwargs": plain(kwargs)}) + "\n")


def _write(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def _exception_from(lines):
    """Splits a log part at its last traceback: (text before it, exception class, message)."""
    starts = [i for i, l in enumerate(lines) if l.startswith("Traceback (most recent call last):")]
    if not starts:
        return "".join(lines), None, None
    last = starts[-1]
    i = last + 1
    while i < len(lines) and (lines[i].startswith(" ") or not lines[i].strip()):
        i += 1
    text = "".join(lines[i:]).rstrip("\n")
    name, _, message = text.partition(": ")
    module, _, cls = name.rpartition(".")
    exc = type(cls or name, (Exception,), {"__module__": module or "builtins"})
    return "".join(lines[:last]), exc, message


def _play(method):
    fail_at = _SCENARIO.get("failAt")
    # load_model_script and optimize share the log's optimize part: optimize prints it, unless
    # loading the script is what fails.
    if method == "load_model_script" and fail_at != method:
        return
    lines = _SECTIONS[_SECTION_OF[method]]
    delay = _SCENARIO.get("delay") or {}
    if delay.get("at") == method:
        time.sleep(float(delay.get("ms", 0)) / 1000.0)
    if _SCENARIO.get("oomAt") == method:
        _write("".join(lines[: max(1, len(lines) // 2)]))
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGKILL)
    progress = _SCENARIO.get("progress") or {}
    if progress.get("at") == method:
        head = [l for l in lines if not l.startswith("Calibration:")]
        n = int(progress.get("entries", 64))
        interval = float(progress.get("intervalMs", 50)) / 1000.0
        _write("".join(head[:1]))
        start = time.time()
        for k in range(n + 1):
            pct = int(100 * k / n)
            bar = ("\u2588" * (pct // 10)).ljust(10)
            elapsed = int(time.time() - start)
            rate = k / max(time.time() - start, 1e-3)
            _write("\rCalibration: %3d%%|%s| %d/%d [00:%02d<00:00, %.2fentries/s]" % (pct, bar, k, n, elapsed, rate))
            time.sleep(interval)
        _write("\n")
        lines = head[1:]
    if fail_at == method:
        before, exc, message = _exception_from(lines)
        _write(before)
        if exc is None:
            os._exit(1)
        raise exc(message)
    _write("".join(lines))


class InferenceContext(object):
    """The DFC's emulator contexts (dfc-flow.md 3.2)."""

    SDK_NATIVE = "SDK_NATIVE"
    SDK_FP_OPTIMIZED = "SDK_FP_OPTIMIZED"
    SDK_QUANTIZED = "SDK_QUANTIZED"
    SDK_BIT_EXACT = "SDK_BIT_EXACT"


class _InferContext(object):
    def __init__(self, target):
        self.target = target

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _ParamsStatistics(dict):
    """Flat keys "<net>/<layer>/<stat>"; stats["<net>/<layer>"] is that layer's {"<stat>": array}."""

    def __missing__(self, layer):
        prefix = layer + "/"
        sub = {k[len(prefix):]: v for k, v in dict.items(self) if k.startswith(prefix)}
        if not sub:
            raise KeyError(layer)
        return sub


class _KerasModel(object):
    """The acceleras model behind get_keras_model(ctx)._model, as far as Hailo's diagnostic tool uses it."""

    def __init__(self, runner, target):
        self._runner = runner
        self._target = target
        self._save = []
        self.interlayer_tensors = {}
        self.layers = {name: None for name in (runner._hn or {}).get("layers", {})}

    def compile(self, save_interlayer=None, **kwargs):
        _record("keras.compile", [], dict(kwargs, save_interlayer=save_interlayer))
        self._save = list(save_interlayer or [])

    def __call__(self, data):
        import numpy as np

        _record("keras.call", [data], {})
        spec = (_SCENARIO.get("interlayer") or {}).get(self._target)
        if spec is None:
            raise RuntimeError("fake DFC: the scenario has no inter-layer outputs for %s" % self._target)
        net = self._runner._net
        wanted = self._save or ["%s/%s" % (net, k) for k in spec]
        out = {}
        for name in wanted:
            short = name.split("/")[-1]
            if short in spec:
                out[name] = np.load(os.path.join(_BASE, spec[short]))
        self.interlayer_tensors = out
        return None


class _KerasWrapper(object):
    def __init__(self, runner, target):
        self._model = _KerasModel(runner, target)


class ClientRunner(object):
    def __init__(self, hw_arch=None, har=None, **kwargs):
        _record("ClientRunner", [], dict(kwargs, hw_arch=hw_arch, har=har))
        _write("".join(_SECTIONS["header"]))
        self._hw_arch = hw_arch
        self._external = {}
        self._net = None
        self._hn = None
        self._statistics = _ParamsStatistics()
        self._script = None
        if har is not None:
            self._load_har(har)

    def _load_har(self, path):
        with tarfile.open(path) as t:
            for m in t.getmembers():
                if m.name.endswith(".hn"):
                    self._hn = json.loads(t.extractfile(m).read().decode("utf-8"))
                    self._net = self._hn.get("name")
                elif m.name.endswith(_SCRIPT_MEMBER):
                    self._script = t.extractfile(m).read().decode("utf-8")
                    _apply_script_rules(self._script)
        if self._hn is None:
            raise ValueError("%s is not a HAR (no .hn member)" % path)

    def translate_onnx_model(self, model=None, net_name=None, start_node_names=None, end_node_names=None, net_input_shapes=None,
                             augmented_path=None, disable_shape_inference=False, disable_rt_metadata_extraction=False,
                             net_input_format=None, **kwargs):
        _record("translate_onnx_model", [model, net_name], dict(kwargs, start_node_names=start_node_names, end_node_names=end_node_names,
                                                                net_input_shapes=net_input_shapes))
        if not os.path.isfile(model):
            raise FileNotFoundError("[Errno 2] No such file or directory: %r" % model)
        if _SCENARIO.get("parser") is not None:
            from hailo_sdk_client import _parser

            included = _parser.translate(_SCENARIO["parser"], model, net_name, start_node_names, end_node_names, _write)
            self._net = net_name
            self._hn = {"name": net_name, "net_params": {"version": "fake"},
                        "layers": {"%s/%s%d" % (net_name, n["op"].lower(), i + 1): {"type": n["op"].lower()} for i, n in enumerate(included)}}
            return self._hn, {}
        _play("translate_onnx_model")
        self._net = net_name
        self._hn = {"name": net_name, "net_params": {"version": "fake"},
                    "layers": {"%s/input_layer1" % net_name: {"type": "input_layer", "output_shapes": [[-1, 8, 8, 3]]},
                               "%s/conv1" % net_name: {"type": "conv", "output_shapes": [[-1, 8, 8, 16]]},
                               "%s/output_layer1" % net_name: {"type": "output_layer", "output_shapes": [[-1, 8, 8, 16]]}}}
        return self._hn, {}

    def analyze_noise(self, dataset, data_count=None, batch_size=None, analyze_mode=None, **kwargs):
        import numpy as np

        _record("analyze_noise", [dataset], dict(kwargs, data_count=data_count, batch_size=batch_size, analyze_mode=analyze_mode))
        spec = _SCENARIO.get("noise") or {}
        if "raise" in spec:
            exc = type(spec["raise"], (Exception,), {"__module__": "hailo_model_optimization.acceleras.utils.acceleras_exceptions"})
            raise exc(spec.get("message", ""))
        n = (next(iter(dataset.values())) if isinstance(dataset, dict) else dataset).shape[0]
        if data_count is not None and data_count > n:
            raise ValueError("fake DFC: data_count %d > %d entries" % (data_count, n))
        net = self._net
        for layer, stats in (spec.get("statistics") or {}).items():
            for key, values in stats.items():
                if key.startswith("noise_results/"):
                    key = "noise_results/%s/%s" % (net, key[len("noise_results/"):])
                self._statistics["%s/%s/layer_noise_analysis/%s" % (net, layer, key)] = np.asarray(values, dtype=np.float32)
        _write("[info] fake DFC: layer noise analysis of %d entries done\n" % (data_count or n))
        return None

    def get_params_statistics(self):
        _record("get_params_statistics", [], {})
        return self._statistics

    def get_hn(self):
        return json.dumps(self._hn)

    def add_external_file(self, name, path):
        _record("add_external_file", [name, path], {})
        with open(path, "rb") as f:
            self._external[name] = f.read()

    def load_model_script(self, model_script=None, append=False):
        _record("load_model_script", [model_script], {"append": append})
        if os.path.isfile(model_script):
            with open(model_script) as f:
                self._script = f.read()
            _apply_script_rules(self._script)
        _play("load_model_script")

    def optimize(self, calib_data, data_type=None, work_dir=None):
        _record("optimize", [calib_data], {})
        _play("optimize")

    def compile(self):
        _record("compile", [], {})
        _play("compile")
        key = "hef" if "hailo-config.json" in self._external else "hefNoConfig"
        default = {"hef": "examples/qwen3vl-vision-encoder.hef", "hefNoConfig": "examples/qwen3vl-vision-encoder-no-config.hef"}[key]
        with open(os.path.join(_REPO, _SCENARIO.get(key, default)), "rb") as f:
            return f.read()

    def infer_context(self, target, **kwargs):
        _record("infer_context", [target], kwargs)
        return _InferContext(target)

    def infer(self, context, dataset, **kwargs):
        import numpy as np

        _record("infer", [context.target, dataset], kwargs)
        delay = _SCENARIO.get("delay") or {}
        if delay.get("at") == "infer":
            time.sleep(float(delay.get("ms", 0)) / 1000.0)
        spec = (_SCENARIO.get("emulate") or {}).get(context.target)
        if spec is None:
            raise RuntimeError("fake DFC: the scenario has no outputs for %s" % context.target)
        if "raise" in spec:
            exc = type(spec["raise"], (Exception,), {"__module__": "hailo_model_optimization.acceleras.utils.acceleras_exceptions"})
            raise exc(spec.get("message", ""))
        n = (next(iter(dataset.values())) if isinstance(dataset, dict) else dataset).shape[0]
        outs = []
        for f in spec["outputs"]:
            y = np.load(os.path.join(_BASE, f))
            if y.shape[0] != n:
                raise ValueError("fake DFC: replay %s holds %d results for %d inputs" % (f, y.shape[0], n))
            outs.append(y)
        return outs[0] if len(outs) == 1 else outs

    def get_keras_model(self, context, **kwargs):
        _record("get_keras_model", [context.target], kwargs)
        return _KerasWrapper(self, context.target)

    def save_har(self, har_path, **kwargs):
        _record("save_har", [har_path], kwargs)
        # The DFC's own line for it, as users' consoles show it (test/fixtures/dfc/real-whisper-multicontext/run.log:18).
        _write("[info] Saved HAR to: %s\n" % har_path)
        hn = json.dumps(self._hn).encode("utf-8")
        with tarfile.open(har_path, "w") as t:
            info = tarfile.TarInfo("%s.hn" % self._net)
            info.size = len(hn)
            t.addfile(info, io.BytesIO(hn))
            if self._script is not None:
                text = self._script.encode("utf-8")
                info = tarfile.TarInfo("%s%s" % (self._net, _SCRIPT_MEMBER))
                info.size = len(text)
                t.addfile(info, io.BytesIO(text))


if _SCENARIO.get("externalFile") is False:
    del ClientRunner.add_external_file
