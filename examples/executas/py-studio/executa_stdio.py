"""executa_stdio — a small, vendored, stdlib-only runtime for Executa plugins (protocol 2.0).

Plugins import it relative to their own file, the way published plugins carry their helpers.
It does what the official SDKs do on the wire:

* one stdin reader that tells forward requests (they have `method`) from answers to our own
  reverse requests (they do not), and serves every `invoke` on its own thread, so answers go out
  in completion order;
* one writer lock, a flush after every frame, and `__file_transport` for frames over 512 KiB —
  responses and reverse *requests* alike (the pointer line carries `id` but no `method`);
* reverse requests with 32-hex string ids, each stamped with `metadata.executa_invoke_id`,
  `metadata.tool` and `context.invoke_id` of the invoke it runs for;
* reverse clients turned on only when the host offers `protocolVersion` exactly "2.0" (or sends
  no `initialize` at all); otherwise calls fail locally with the family's code;
* logs as JSON lines on stderr; exit 0 on stdin EOF and on SIGTERM.
"""
from __future__ import annotations

import inspect
import json
import os
import queue
import signal
import sys
import tempfile
import threading
import time
import traceback
import uuid
from typing import Any, Callable

PROTOCOL_VERSION = "2.0"
FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024
DEFAULT_REVERSE_TIMEOUT_S = 60.0
# On stdin EOF, invokes already running get this long to write their answers.
EOF_GRACE_S = 2.0
# Families the host may take longer to answer (model calls).
REVERSE_TIMEOUT_S = {"sampling/": 90.0, "agent/": 120.0, "image/": 120.0}

# What a disabled client answers, per family (v2 not negotiated): the codes published SDKs use.
_NOT_NEGOTIATED = [
    ("sampling/", -32008, "SAMPLING_NOT_NEGOTIATED"),
    ("agent/", -32008, "SAMPLING_NOT_NEGOTIATED"),
    ("storage/", -32021, "STORAGE_NOT_GRANTED"),
    ("files/", -32021, "STORAGE_NOT_GRANTED"),
    ("image/", -32101, "IMAGE_NOT_GRANTED"),
    ("host/uploadFile", -32201, "UPLOAD_NOT_GRANTED"),
    ("embeddings/", -32507, "EMBED_NOT_NEGOTIATED"),
]


def log(message: str, level: str = "info", **fields: Any) -> None:
    sys.stderr.write(json.dumps({"level": level, "msg": message, **fields}, default=str) + "\n")
    sys.stderr.flush()


class RpcError(Exception):
    """A JSON-RPC error: raised by reverse calls, and sent back verbatim when a tool lets it escape."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{code} {message}")
        self.code = code
        self.message = message
        self.data = data

    def to_wire(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class Invoke:
    """The invoke a tool runs for: identity, deadline and credentials (request-scoped)."""

    def __init__(self, params: dict):
        context = params.get("context") if isinstance(params.get("context"), dict) else {}
        self.tool: str = params.get("tool") or params.get("name") or ""
        # SDK rule: context.invoke_id first, then the top-level field.
        self.invoke_id: str = context.get("invoke_id") or params.get("invoke_id") or ""
        self.plugin_name: str = context.get("plugin_name") or ""
        self.deadline_ms: int = context.get("deadline_ms") or 0
        self.credentials: dict = context.get("credentials") or {}
        self.context: dict = context

    def credential(self, name: str, default: str | None = None) -> str | None:
        """`context.credentials[NAME]`, else the environment variable of the same name."""
        return self.credentials.get(name) or os.environ.get(name) or default

    def remaining_s(self) -> float | None:
        """Seconds until the host gives up on this invoke; None when there is no deadline (≤ 0)."""
        if not isinstance(self.deadline_ms, (int, float)) or self.deadline_ms <= 0:
            return None
        return max(0.0, self.deadline_ms / 1000.0 - time.time())


class Plugin:
    def __init__(
        self,
        manifest: dict,
        *,
        server_info: dict,
        client_capabilities: dict | None = None,
        capabilities: dict | None = None,
    ):
        self.manifest = manifest
        self.server_info = server_info
        self.client_capabilities = client_capabilities or {}
        self.capabilities = capabilities or {}
        # A host that never sends `initialize` leaves the clients on (published SDK behaviour).
        self.reverse_enabled = True
        self._tools: dict[str, Callable[..., Any]] = {}
        self._pending: dict[str, queue.Queue] = {}
        self._pending_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._local = threading.local()
        self._inflight: set[threading.Thread] = set()
        self._closed = False
        self._out = sys.stdout.buffer

    # ---- registration ---------------------------------------------------------------------

    def tool(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register `fn(**arguments)`; it returns the `data` of a successful invoke, or a full
        `{"success": False, "error": …}` dict for an expected failure."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self._tools[name] = fn
            return fn

        return register

    # ---- inside a tool --------------------------------------------------------------------

    @property
    def invoke(self) -> Invoke:
        current = getattr(self._local, "invoke", None)
        if current is None:
            raise RuntimeError("no invoke is bound to this thread")
        return current

    def call(self, method: str, params: dict, *, timeout_s: float | None = None) -> Any:
        """Send a reverse request for the current invoke and wait for the host's answer."""
        if not self.reverse_enabled:
            code, error_code = next(((c, e) for prefix, c, e in _NOT_NEGOTIATED if method.startswith(prefix)), (-32601, "NOT_NEGOTIATED"))
            raise RpcError(code, f"{method}: protocol 2.0 was not negotiated", {"errorCode": error_code})
        current = getattr(self._local, "invoke", None)
        params = dict(params)
        metadata = dict(params.get("metadata") or {})
        metadata.setdefault("executa_invoke_id", current.invoke_id if current else "")
        metadata.setdefault("tool", current.tool if current else "")
        params["metadata"] = metadata
        if current and current.invoke_id:
            params["context"] = {**(params.get("context") or {}), "invoke_id": current.invoke_id}
        if timeout_s is None:
            timeout_s = next((t for prefix, t in REVERSE_TIMEOUT_S.items() if method.startswith(prefix)), DEFAULT_REVERSE_TIMEOUT_S)
        remaining = current.remaining_s() if current else None
        if remaining is not None:
            timeout_s = min(timeout_s, remaining)

        request_id = uuid.uuid4().hex
        answer: queue.Queue = queue.Queue(maxsize=1)
        with self._pending_lock:
            if self._closed:
                raise RpcError(-32000, "host closed stdin", {"errorCode": "PROCESS_EXITED"})
            self._pending[request_id] = answer
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        try:
            message = answer.get(timeout=timeout_s)
        except queue.Empty:
            raise RpcError(-32000, f"{method}: no answer within {timeout_s:.0f}s", {"errorCode": "TIMEOUT"}) from None
        finally:
            with self._pending_lock:
                self._pending.pop(request_id, None)
        if "error" in message:
            error = message["error"] or {}
            raise RpcError(error.get("code", -32603), error.get("message", "reverse call failed"), error.get("data"))
        return message.get("result")

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def emit_progress(self, kind: str, data: dict) -> None:
        """`executa/progress` notification, correlated only through `context.invoke_id`."""
        current = getattr(self._local, "invoke", None)
        invoke_id = current.invoke_id if current else ""
        self.notify(
            "executa/progress",
            {
                "type": kind,
                "data": data,
                "context": {"invoke_id": invoke_id},
                "metadata": {"executa_invoke_id": invoke_id, "tool": current.tool if current else ""},
            },
        )

    # ---- wire -----------------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        data = json.dumps(message, separators=(",", ":")).encode("utf-8")
        if len(data) > FILE_TRANSPORT_THRESHOLD_BYTES and "id" in message:
            # Too big for one line: the whole frame goes to a temp file the host reads and deletes.
            fd, path = tempfile.mkstemp(prefix="executa-msg-", suffix=".json")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            data = json.dumps({"jsonrpc": "2.0", "id": message["id"], "__file_transport": path}).encode("utf-8")
        with self._write_lock:
            try:
                self._out.write(data + b"\n")
                self._out.flush()
            except (BrokenPipeError, ValueError):
                pass  # the host is gone; stdin EOF ends the process

    def _reply(self, request_id: Any, *, result: Any = None, error: dict | None = None) -> None:
        if error is not None:
            self._send({"jsonrpc": "2.0", "id": request_id, "error": error})
        else:
            self._send({"jsonrpc": "2.0", "id": request_id, "result": result})

    @staticmethod
    def _resolve_file_transport(message: dict) -> dict:
        path = message.get("__file_transport") if isinstance(message, dict) else None
        if not isinstance(path, str):
            return message
        try:
            with open(path, "rb") as handle:
                return json.loads(handle.read())
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass

    # ---- forward requests -----------------------------------------------------------------

    def _initialize(self, params: dict) -> dict:
        offered = params.get("protocolVersion")
        # String comparison, like published plugins: "2.1" or 2 is not "2.0".
        self.reverse_enabled = offered == PROTOCOL_VERSION
        if not self.reverse_enabled:
            log("host did not offer protocol 2.0; reverse clients disabled", level="warn", offered=offered)
        return {
            "protocolVersion": PROTOCOL_VERSION if self.reverse_enabled else (offered if isinstance(offered, str) else "1.1"),
            "serverInfo": self.server_info,
            "client_capabilities": self.client_capabilities,
            "capabilities": self.capabilities,
        }

    def _serve_invoke(self, request_id: Any, params: dict) -> None:
        current = Invoke(params)
        self._local.invoke = current
        try:
            fn = self._tools.get(current.tool)
            if fn is None:
                raise RpcError(-32601, f"Unknown tool: {current.tool}")
            arguments = params.get("arguments") or {}
            if not isinstance(arguments, dict):
                raise RpcError(-32602, "arguments must be an object")
            try:
                inspect.signature(fn).bind(**arguments)
            except TypeError as exc:
                raise RpcError(-32602, f"Invalid params for {current.tool}: {exc}") from exc
            outcome = fn(**arguments)
            if isinstance(outcome, dict) and outcome.get("success") is False:
                result = {**outcome, "tool": current.tool}
            else:
                result = {"success": True, "data": outcome, "tool": current.tool}
            self._reply(request_id, result=result)
        except RpcError as exc:
            # Reverse-call errors pass through as the invoke's error, code and data intact.
            self._reply(request_id, error=exc.to_wire())
        except Exception as exc:  # noqa: BLE001 - a bug in one tool must not kill the plugin
            log("tool crashed", level="error", tool=current.tool, trace=traceback.format_exc())
            self._reply(request_id, error={"code": -32603, "message": f"Internal error: {exc}"})
        finally:
            self._local.invoke = None
            self._inflight.discard(threading.current_thread())

    def _dispatch(self, message: dict) -> None:
        method = message.get("method")
        if method is None:
            request_id = message.get("id")
            with self._pending_lock:
                waiter = self._pending.get(request_id) if isinstance(request_id, str) else None
            if waiter is None:
                log("unmatched response", level="warn", id=request_id)
            else:
                waiter.put(message)
            return
        if "id" not in message:
            return  # host notifications carry nothing this plugin acts on
        request_id = message["id"]
        params = message.get("params")
        if params is None:
            params = {}
        if not isinstance(params, dict):
            self._reply(request_id, error={"code": -32602, "message": "params must be an object"})
        elif method == "initialize":
            self._reply(request_id, result=self._initialize(params))
        elif method == "describe":
            self._reply(request_id, result=self.manifest)
        elif method == "health":
            self._reply(request_id, result={"status": "ready", "message": "", "details": {"tools": len(self._tools)}})
        elif method == "shutdown":
            self._reply(request_id, result={"ok": True})
        elif method == "invoke":
            worker = threading.Thread(target=self._serve_invoke, args=(request_id, params), daemon=True)
            self._inflight.add(worker)
            worker.start()
        else:
            self._reply(request_id, error={"code": -32601, "message": f"Method not found: {method}"})

    def run(self) -> int:
        signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
        log("plugin started", name=self.server_info.get("name"), version=self.server_info.get("version"))
        stdin = sys.stdin.buffer
        while True:
            raw = stdin.readline()
            if not raw:
                break
            line = raw.strip()
            if not line:
                continue
            try:
                message = self._resolve_file_transport(json.loads(line))
            except (ValueError, OSError) as exc:
                self._reply(None, error={"code": -32700, "message": f"Parse error: {exc}"})
                continue
            if not isinstance(message, dict):
                self._reply(None, error={"code": -32600, "message": "Invalid request"})
                continue
            self._dispatch(message)
        self._drain()
        log("stdin closed, exiting")
        return 0

    def _drain(self) -> None:
        """Fail every waiting reverse call (no answer can come now), then let running invokes
        write their answers within EOF_GRACE_S."""
        with self._pending_lock:
            self._closed = True
            waiting = list(self._pending.values())
        for answer in waiting:
            answer.put_nowait({"error": {"code": -32000, "message": "host closed stdin", "data": {"errorCode": "PROCESS_EXITED"}}})
        deadline = time.monotonic() + EOF_GRACE_S
        for worker in list(self._inflight):
            worker.join(max(0.0, deadline - time.monotonic()))
