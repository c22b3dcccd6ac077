#!/usr/bin/env python3
"""{{display_name}} — an Anna Executa plugin (protocol 2.0), standard library only.

The plugin is a long-running process speaking JSON-RPC 2.0 over stdio: one JSON object per line
on stdin, one per line on stdout. stdout belongs to the protocol, so logs go to stderr.

Run it:   anna-app executa dev --dir . --invoke hello --args '{"name":"Ada"}'
By hand:  echo '{"jsonrpc":"2.0","id":1,"method":"describe"}' | python3 {{module}}.py
Test it:  python3 -m unittest
"""
from __future__ import annotations

import inspect
import json
import os
import signal
import sys
from typing import Any, Callable, Dict, Optional, Tuple

VERSION = "0.1.0"
# The host offers "2.0" in `initialize`; plugins answer with the version they speak.
PROTOCOL_VERSION = "2.0"

# The bare manifest `describe` returns. The identity is the tool_id in executa.json
# ({{tool_id}}), not `name`.
MANIFEST: Dict[str, Any] = {
    "name": "{{slug}}",
    "display_name": "{{display_name}}",
    "version": VERSION,
    "description": "{{display_name}}: says hello.",
    "tools": [
        {
            "name": "hello",
            "description": "Greet someone by name.",
            "parameters": [
                {"name": "name", "type": "string", "description": "Who to greet.", "required": True},
            ],
        },
    ],
    "credentials": [
        {
            "name": "HELLO_GREETING",
            "display_name": "Greeting",
            "description": "The word to greet with. Defaults to Hello.",
            "required": False,
            "sensitive": False,
        },
    ],
}


class RpcError(Exception):
    """An error answered as a JSON-RPC error frame instead of a tool result."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def log(message: str, **fields: Any) -> None:
    """Logs are JSON lines on stderr: stdout is reserved for protocol frames."""
    sys.stderr.write(json.dumps({"level": "info", "msg": message, **fields}) + "\n")
    sys.stderr.flush()


def credential(credentials: Dict[str, Any], name: str) -> Tuple[Optional[str], str]:
    """The value the host sent with this invoke wins; the environment is the local-dev fallback."""
    value = credentials.get(name)
    if value:
        return str(value), "context"
    value = os.environ.get(name)
    if value:
        return value, "env"
    return None, "default"


def tool_hello(name: str, *, credentials: Dict[str, Any]) -> Dict[str, Any]:
    if not isinstance(name, str) or not name.strip():
        raise RpcError(-32602, "Invalid params for hello: name must be a non-empty string")
    greeting, source = credential(credentials, "HELLO_GREETING")
    return {
        "success": True,
        "data": {"message": f"{greeting or 'Hello'}, {name}!", "greeting_source": source},
    }


TOOLS: Dict[str, Callable[..., Dict[str, Any]]] = {"hello": tool_hello}


def invoke(params: Dict[str, Any]) -> Dict[str, Any]:
    tool = params.get("tool") or params.get("name") or ""
    fn = TOOLS.get(tool)
    if fn is None:
        raise RpcError(-32601, f"Unknown tool: {tool}")
    arguments = params.get("arguments") or {}
    if not isinstance(arguments, dict):
        raise RpcError(-32602, "arguments must be an object")
    context = params.get("context") or {}
    credentials = context.get("credentials") or {}
    # Tools take **arguments: check the binding first so a missing or unknown argument is -32602
    # rather than a TypeError raised from inside the tool.
    try:
        inspect.signature(fn).bind(**arguments, credentials=credentials)
    except TypeError as exc:
        raise RpcError(-32602, f"Invalid params for {tool}: {exc}") from exc
    result = fn(**arguments, credentials=credentials)
    result.setdefault("tool", tool)
    return result


def send(message: Dict[str, Any]) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def handle(message: Dict[str, Any]) -> bool:
    """Answers one request. Returns False when the plugin should exit."""
    method = message.get("method")
    req_id = message.get("id")
    if method is None or req_id is None:
        return True  # a response or a notification: nothing to answer
    params = message.get("params") or {}
    if not isinstance(params, dict):
        send({"id": req_id, "error": {"code": -32602, "message": "params must be an object"}})
        return True
    if method == "initialize":
        send({
            "id": req_id,
            "result": {
                "protocolVersion": PROTOCOL_VERSION,
                "serverInfo": {"name": "{{slug}}", "version": VERSION},
                "capabilities": {},
            },
        })
    elif method == "describe":
        send({"id": req_id, "result": MANIFEST})
    elif method == "invoke":
        try:
            send({"id": req_id, "result": invoke(params)})
        except RpcError as exc:
            send({"id": req_id, "error": {"code": exc.code, "message": exc.message}})
        except Exception as exc:  # noqa: BLE001 - a bug in a tool must not kill the plugin
            log("invoke failed", error=repr(exc))
            send({"id": req_id, "error": {"code": -32603, "message": f"Internal error: {exc}"}})
    elif method == "health":
        send({"id": req_id, "result": {"status": "healthy", "version": VERSION}})
    elif method == "shutdown":
        send({"id": req_id, "result": {}})
        return False
    else:
        send({"id": req_id, "error": {"code": -32601, "message": f"Method not found: {method}"}})
    return True


def main() -> int:
    # The host's SIGTERM is a normal stop, not a crash.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    log("{{slug}} started", version=VERSION)
    for raw in sys.stdin.buffer:
        line = raw.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            send({"id": None, "error": {"code": -32700, "message": f"Parse error: {exc}"}})
            continue
        if not isinstance(message, dict):
            send({"id": None, "error": {"code": -32600, "message": "Invalid request"}})
            continue
        if not handle(message):
            log("shutdown requested, exiting")
            return 0
    log("stdin closed, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
