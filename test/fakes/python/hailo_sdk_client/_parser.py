# The fake DFC's ONNX parser for the bisection tests: which nodes translate_onnx_model translates for
# the given start/end_node_names, and a refusal of chosen nodes the way the Qwen3-VL logbook's parser
# refused (dfc-flow.md 3.5): an exception from deep inside the parser that names no node and carries
# no recommendation (`IndexError: list index out of range` in get_concat_info). Mirrors the real
# parser's rules the tests rely on: start/end_node_names are NODE names (anything else raises
# MisspellNodeError: Unable to find end node name(s)); the parse walks the ancestors of the end nodes
# back to the start nodes (dfc-flow.md 3.5: "start/end_node_names … still walks the ancestors");
# no end nodes = the whole graph. Reads the ONNX protobuf itself (only numpy exists here, no onnx).
#
# Scenario key "parser": {"refuse": [{"node": NAME | "op": OP_TYPE, "raise": "IndexError",
#   "message": "list index out of range", "in": "get_concat_info"}], "absorbed": [OP_TYPE], "delayMs": N}
# "absorbed": as an end node, a node of that op is missing in the HN after a translation that went
# through (InvalidHNError), as reshape-like ops folded into their neighbours are.
import re
import sys
import time


def _varint(buf, i):
    shift = result = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7


def _fields(buf):
    """(field number, wire type, value) of one protobuf message; length-delimited values as bytes."""
    i, n = 0, len(buf)
    while i < n:
        key, i = _varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(buf, i)
        elif wt == 1:
            v, i = buf[i:i + 8], i + 8
        elif wt == 2:
            ln, i = _varint(buf, i)
            v, i = buf[i:i + ln], i + ln
        elif wt == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("fake DFC: unsupported wire type %d" % wt)
        yield num, wt, v


def read_graph(path):
    with open(path, "rb") as f:
        data = f.read()
    graph = next(bytes(v) for num, wt, v in _fields(data) if num == 7 and wt == 2)
    nodes, inits, inputs, outputs = [], set(), [], []
    for num, wt, v in _fields(graph):
        if wt != 2:
            continue
        if num == 1:
            node = {"inputs": [], "outputs": [], "name": "", "op": ""}
            for fn, fwt, fv in _fields(v):
                if fwt != 2:
                    continue
                if fn == 1:
                    node["inputs"].append(bytes(fv).decode("utf-8"))
                elif fn == 2:
                    node["outputs"].append(bytes(fv).decode("utf-8"))
                elif fn == 3:
                    node["name"] = bytes(fv).decode("utf-8")
                elif fn == 4:
                    node["op"] = bytes(fv).decode("utf-8")
            nodes.append(node)
        elif num in (5, 11, 12):
            name = next((bytes(fv).decode("utf-8") for fn, fwt, fv in _fields(v) if fn == (8 if num == 5 else 1) and fwt == 2), "")
            (inits.add(name) if num == 5 else (inputs if num == 11 else outputs).append(name))
    return nodes, inits, inputs, outputs


def _misspell(kind, names):
    exc = type("MisspellNodeError", (Exception,), {"__module__": "hailo_sdk_client.model_translator.exceptions"})
    return exc("Unable to find %s node name(s): %s. Please verify the names of the %s nodes" % (kind, names, kind))


def translated_nodes(path, start, end):
    """The nodes the parser translates for these start/end_node_names (the ancestors of the end nodes)."""
    nodes, _inits, _inputs, outputs = read_graph(path)
    by_name = {n["name"]: n for n in nodes if n["name"]}
    for kind, names in (("start", start), ("end", end)):
        missing = [x for x in (names or []) if x not in by_name]
        if missing:
            raise _misspell(kind, missing)
    producer = {}
    for n in nodes:
        for o in n["outputs"]:
            producer[o] = n
    stop = set(start or [])
    roots = [by_name[x] for x in end] if end else [producer[o] for o in outputs if o in producer]
    seen, stack = set(), list(roots)
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n["name"] in stop:
            continue
        for t in n["inputs"]:
            p = producer.get(t)
            if p is not None:
                stack.append(p)
    return [n for n in nodes if id(n) in seen]


def _raiser(function, exc_name, module):
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", function):
        raise ValueError("fake DFC: bad function name %r" % function)
    builtin = getattr(__builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__, "get", lambda k: None)(exc_name)
    exc = builtin if isinstance(builtin, type) and issubclass(builtin, Exception) else type(exc_name, (Exception,), {"__module__": module})
    ns = {}
    exec("def %s(exc, message):\n    raise exc(message)\n" % function, ns)
    return ns[function], exc


def translate(spec, path, net, start, end, write):
    write("[info] Translation started on ONNX model %s\n" % net)
    started = time.time()
    delay = float(spec.get("delayMs", 0)) / 1000.0
    if delay:
        time.sleep(delay)
    included = translated_nodes(path, start, end)
    for rule in spec.get("refuse") or []:
        hit = [n for n in included if n["name"] == rule.get("node") or (rule.get("op") and n["op"] == rule["op"])]
        if hit:
            function, exc = _raiser(rule.get("in", "parse"), rule.get("raise", "IndexError"), rule.get("module", "builtins"))
            function(exc, rule.get("message", "list index out of range"))
    write("[info] Translation completed on ONNX model %s (completion time: 00:00:%05.2f)\n" % (net, time.time() - started))
    # Reshape-like ops are folded into their neighbours: as an end node such a node is not in the HN
    # (dfc-flow.md 3.5, InvalidHNError on one-operator graphs).
    absorbed = set(spec.get("absorbed") or [])
    by_name = {n["name"]: n for n in included if n["name"]}
    for name in end or []:
        if by_name.get(name, {}).get("op") in absorbed:
            exc = type("InvalidHNError", (Exception,), {"__module__": "hailo_sdk_common.hailo_nn.exceptions"})
            raise exc("node name %s in end_node_names is missing in the HN" % name)
    return included
