# What the analysis drivers (hailo_emulate.py, hailo_noise.py, hailo_interlayer.py) share. Runs
# INSIDE the Dataflow Compiler container, imported from the driver's own folder (the folder is
# bind-mounted or copied in whole with the driver: compile/dockerArgs.ts DRIVER_MODULE). Python
# 3.8+, standard library only.
import json
import os
import sys

# The DFC's own Python in Hailo's images (the SDK's virtualenv), when `python3` is another one.
DFC_PYTHONS = ["/local/workspace/hailo_virtualenv/bin/python", "/opt/dfc/bin/python"]
REEXEC_FLAG = "HAILO_TOOLS_DRIVER_REEXEC"


def sayer(tag):
    """The driver's console line: "hailo-tools TAG: message", flushed at once (the host reads it live)."""

    def say(message):
        sys.stdout.write("hailo-tools %s: %s\n" % (tag, message))
        sys.stdout.flush()

    return say


def reexec_in_dfc_python():
    """hailo_sdk_client is not importable here: run this driver again under the DFC's Python, once.

    Returns only when there is no other Python to try (the caller then reports no DFC)."""
    if os.environ.get(REEXEC_FLAG):
        return
    me = os.path.realpath(sys.executable)
    for py in DFC_PYTHONS:
        if os.path.isfile(py) and os.access(py, os.X_OK) and os.path.realpath(py) != me:
            os.environ[REEXEC_FLAG] = "1"
            os.execv(py, [py] + sys.argv)


def write_json(path, data):
    """Writes the manifest whole or not at all (a .partial renamed over it)."""
    with open(path + ".partial", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(path + ".partial", path)
