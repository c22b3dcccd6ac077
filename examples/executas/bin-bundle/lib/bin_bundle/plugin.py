"""bin-bundle plugin logic (protocol 1.1), started by bin/bin-bundle. Python 3.10+ stdlib only.

It stands in for a native multi-file binary: the launcher found this file on the library path,
the helper command comes from share/bin via PATH, and the quotes come from EXECUTA_DATA.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Any

VERSION = "0.1.0"
HELPER = "bundle-helper"
HELPER_TIMEOUT_S = 5
EOF_GRACE_S = 2.0

MANIFEST = {
    "display_name": "Binary bundle (example)",
    "version": VERSION,
    "description": "A multi-file binary layout: bin/, lib/, share/bin/ and data/ found through the environment the host sets.",
    "author": "Anna examples",
    "license": "Apache-2.0",
    "tools": [
        {
            "name": "env_report",
            "description": "Report EXECUTA_HOME, EXECUTA_DATA, the library path and PATH as this process saw them.",
            "parameters": [],
        },
        {
            "name": "quote",
            "description": "A quote from the bundled data directory.",
            "parameters": [{"name": "index", "type": "integer", "description": "Which quote.", "required": False, "default": 0}],
        },
        {
            "name": "shout",
            "description": "Upper-case a text with the bundled helper command.",
            "parameters": [{"name": "text", "type": "string", "description": "Text.", "required": True}],
        },
    ],
}

_write_lock = threading.Lock()
_inflight: set[threading.Thread] = set()


def log(message: str, **fields: Any) -> None:
    sys.stderr.write(json.dumps({"level": "info", "msg": message, **fields}) + "\n")
    sys.stderr.flush()


def _split(value: str | None) -> list[str]:
    return [entry for entry in (value or "").split(os.pathsep) if entry]


def env_report() -> dict:
    home = os.environ.get("EXECUTA_HOME")
    data = os.environ.get("EXECUTA_DATA")
    # As the launcher saw them: the interpreter it started may be a shim that rewrites PATH.
    library_path = _split(os.environ.get("BIN_BUNDLE_SEEN_LD_LIBRARY_PATH", os.environ.get("LD_LIBRARY_PATH")))
    path = _split(os.environ.get("BIN_BUNDLE_SEEN_PATH", os.environ.get("PATH")))
    helper = shutil.which(HELPER, path=os.pathsep.join(path))
    helper_version = None
    if helper:
        helper_version = subprocess.run([helper, "--version"], capture_output=True, text=True, timeout=HELPER_TIMEOUT_S).stdout.strip()
    lib_dir = os.environ.get("BIN_BUNDLE_LIB_DIR")
    return {
        "EXECUTA_HOME": home,
        "EXECUTA_DATA": data,
        "LD_LIBRARY_PATH": library_path,
        "PATH": path,
        "cwd": os.getcwd(),
        "lib_dir": lib_dir,
        "lib_source": os.environ.get("BIN_BUNDLE_LIB_SOURCE"),
        "helper_path": helper,
        "helper_version": helper_version,
        "checks": {
            "cwd_is_home": bool(home) and os.path.realpath(os.getcwd()) == os.path.realpath(home),
            "data_is_home_data": bool(home and data) and os.path.realpath(data) == os.path.realpath(os.path.join(home, "data")),
            "lib_first_on_library_path": bool(home and library_path) and os.path.realpath(library_path[0]) == os.path.realpath(os.path.join(home, "lib")),
            "share_bin_first_on_path": bool(home and path) and os.path.realpath(path[0]) == os.path.realpath(os.path.join(home, "share", "bin")),
            "helper_from_bundle": bool(home and helper) and os.path.realpath(helper).startswith(os.path.realpath(home) + os.sep),
        },
    }


def quote(index: int = 0) -> dict:
    data = os.environ.get("EXECUTA_DATA")
    if not data:
        return {"success": False, "error": "EXECUTA_DATA is not set"}
    with open(os.path.join(data, "quotes.json"), encoding="utf-8") as handle:
        quotes = json.load(handle)
    if not isinstance(index, int) or not 0 <= index < len(quotes):
        return {"success": False, "error": f"index must be 0..{len(quotes) - 1}"}
    return {"success": True, "data": {"index": index, "quote": quotes[index]}}


def shout(text: str) -> dict:
    helper = shutil.which(HELPER, path=os.environ.get("BIN_BUNDLE_SEEN_PATH"))
    if helper is None:
        return {"success": False, "error": f"{HELPER} not found on PATH"}
    completed = subprocess.run([helper, "shout", text], capture_output=True, text=True, timeout=HELPER_TIMEOUT_S)
    return {"success": True, "data": {"output": completed.stdout.strip(), "helper": helper}}


TOOLS = {"env_report": env_report, "quote": quote, "shout": shout}


def send(message: dict) -> None:
    with _write_lock:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        sys.stdout.flush()


def serve_invoke(req_id: Any, params: dict) -> None:
    try:
        tool = params.get("tool") or params.get("name") or ""
        fn = TOOLS.get(tool)
        if fn is None:
            send({"id": req_id, "error": {"code": -32601, "message": f"Unknown tool: {tool}"}})
            return
        arguments = params.get("arguments") or {}
        try:
            outcome = fn(**arguments)
        except TypeError as exc:
            send({"id": req_id, "error": {"code": -32602, "message": f"Invalid params for {tool}: {exc}"}})
            return
        result = outcome if "success" in outcome else {"success": True, "data": outcome}
        send({"id": req_id, "result": {**result, "tool": tool}})
    except Exception as exc:  # noqa: BLE001 - one failing tool must not kill the plugin
        send({"id": req_id, "error": {"code": -32603, "message": f"Internal error: {exc}"}})
    finally:
        _inflight.discard(threading.current_thread())


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))  # a host stop is not a crash
    log("bin-bundle started", lib_dir=os.environ.get("BIN_BUNDLE_LIB_DIR"))
    for raw in sys.stdin.buffer:
        line = raw.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError as exc:
            send({"id": None, "error": {"code": -32700, "message": f"Parse error: {exc}"}})
            continue
        if not isinstance(message, dict) or "method" not in message or "id" not in message:
            continue
        req_id, method = message["id"], message["method"]
        if method == "describe":
            send({"id": req_id, "result": MANIFEST})
        elif method == "health":
            send({"id": req_id, "result": {"status": "ready", "message": "", "details": {}}})
        elif method == "invoke":
            worker = threading.Thread(target=serve_invoke, args=(req_id, message.get("params") or {}), daemon=True)
            _inflight.add(worker)
            worker.start()
        else:
            send({"id": req_id, "error": {"code": -32601, "message": f"Method not found: {method}"}})
    deadline = time.monotonic() + EOF_GRACE_S
    for worker in list(_inflight):
        worker.join(max(0.0, deadline - time.monotonic()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
