#!/usr/bin/env python3
# hailo-tools parser-bisection driver. Runs INSIDE the Dataflow Compiler container (never on the
# host), in one long-lived container for a whole search: it reads cut requests from stdin, one JSON
# object a line, and parses each with the DFC's own parser (docs/research/dfc-flow.md#python-api):
#     runner = ClientRunner(hw_arch=...)
#     runner.translate_onnx_model(model, net_name, start_node_names=[...], end_node_names=[...])
# A request is {"id": N, "start": [node names] | null, "end": [node names] | null}; null end = the
# whole model, as a user would parse it. Each answer is one line on stdout,
#     hailo-tools bisect-answer: {"id": N, "outcome": "parsed" | "refused", "seconds": s, ...}
# with, for a refusal, the exception's class, module, message and the function names of its last
# traceback frames (the DFC's message often names no node: `IndexError` in get_concat_info). The
# DFC's own console output and the traceback are printed before the answer, so the host's log
# reader sees them. A fresh ClientRunner per cut: a failed translation leaves the runner's state
# undefined. First line: `hailo-tools bisect-answer: {"ready": true, "dfcVersion": ...}`.
#
# Exit: 0 stdin closed or {"quit": true}, 2 bad arguments, 3 no Dataflow Compiler in this image.
# Python 3.8+, standard library only.
import argparse
import json
import os
import sys
import time
import traceback

from hailo_tools_driver import reexec_in_dfc_python

EXIT_USAGE, EXIT_NO_DFC = 2, 3
ANSWER = "hailo-tools bisect-answer: "
MAX_MESSAGE = 4000


def answer(data):
    sys.stdout.write(ANSWER + json.dumps(data) + "\n")
    sys.stdout.flush()


def parse_args(argv):
    p = argparse.ArgumentParser(prog="hailo_bisect.py", description="parse cuts of an ONNX model with the DFC, one per stdin line")
    p.add_argument("--model", required=True, help="the ONNX model")
    p.add_argument("--net", required=True, help="net_name for translate_onnx_model")
    p.add_argument("--hw-arch", default=None)
    return p.parse_args(argv)


def dfc_version():
    try:
        import hailo_sdk_client

        return getattr(hailo_sdk_client, "__version__", None)
    except Exception:  # noqa: BLE001 - a version we cannot read is just unknown
        return None


def parse_one(ClientRunner, args, req):
    kwargs = {}
    if req.get("start"):
        kwargs["start_node_names"] = list(req["start"])
    if req.get("end"):
        kwargs["end_node_names"] = list(req["end"])
    started = time.time()
    try:
        runner = ClientRunner(hw_arch=args.hw_arch) if args.hw_arch else ClientRunner()
        runner.translate_onnx_model(args.model, args.net, **kwargs)
        layers = None
        try:
            hn = runner.get_hn()
            hn = json.loads(hn) if isinstance(hn, str) else hn
            layers = len((hn or {}).get("layers", {}))
        except Exception:  # noqa: BLE001 - the count is a courtesy; the parse itself succeeded
            layers = None
        return {"id": req.get("id"), "outcome": "parsed", "seconds": round(time.time() - started, 3), "layers": layers}
    except Exception as e:  # noqa: BLE001 - every parser exception is the answer
        sys.stdout.flush()
        traceback.print_exc(file=sys.stdout)
        sys.stdout.flush()
        frames = [f.name for f in traceback.extract_tb(e.__traceback__)][-6:]
        return {
            "id": req.get("id"),
            "outcome": "refused",
            "seconds": round(time.time() - started, 3),
            "exception": type(e).__name__,
            "module": type(e).__module__,
            "message": str(e)[:MAX_MESSAGE],
            "frames": frames,
        }


def main(argv):
    try:
        args = parse_args(argv)
    except SystemExit:
        return EXIT_USAGE
    try:
        from hailo_sdk_client import ClientRunner
    except ImportError:
        reexec_in_dfc_python()
        answer({"ready": False, "message": "hailo_sdk_client is not importable in this image (no Dataflow Compiler)"})
        return EXIT_NO_DFC
    if not os.path.isfile(args.model):
        answer({"ready": False, "message": "the model is not visible in the container: %s" % args.model})
        return EXIT_USAGE
    answer({"ready": True, "dfcVersion": dfc_version()})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            answer({"id": None, "outcome": "error", "message": "not a JSON request: %s" % line[:200]})
            continue
        if req.get("quit"):
            break
        answer(parse_one(ClientRunner, args, req))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
