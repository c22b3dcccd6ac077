#!/usr/bin/env python3
"""py-weather — an Executa plugin speaking protocol 1.1 (no `initialize`), stdlib only.

It answers `describe`, `invoke` and `health`; everything else (including `initialize` and
`shutdown`) gets -32601, which is how a v1 plugin tells the host to stay on protocol 1.1.
Weather data is fake and deterministic (a hash of the city name): no network is used.

Run it:  WEATHER_API_KEY=sk_test_1234 python3 weather_plugin.py
Try it:  echo '{"jsonrpc":"2.0","id":1,"method":"describe"}' | python3 weather_plugin.py
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import signal
import sys
import tempfile
import threading
import time
from typing import Any, Callable

VERSION = "0.1.0"

# The bare manifest, as `describe` returns it. No `name`: identity is the tool_id in executa.json.
MANIFEST: dict[str, Any] = {
    "display_name": "Weather (example)",
    "version": VERSION,
    "description": "Current weather and a short forecast for a city. Deterministic fake data.",
    "author": "Anna examples",
    "icon": "🌤",
    "category": "examples",
    "license": "Apache-2.0",
    "tools": [
        {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": [
                {"name": "city", "type": "string", "description": "City name, e.g. Tokyo.", "required": True},
                {
                    "name": "units",
                    "type": "string",
                    "description": "Temperature units. Defaults to the WEATHER_UNITS credential, else metric.",
                    "required": False,
                    "enum": ["metric", "imperial"],
                },
            ],
        },
        {
            "name": "forecast",
            "description": "Daily forecast for the next few days.",
            "timeout": 30,
            "parameters": [
                {"name": "city", "type": "string", "description": "City name.", "required": True},
                {"name": "days", "type": "integer", "description": "Days ahead (1-7).", "required": False, "default": 3},
                {
                    "name": "fields",
                    "type": "array",
                    "items_type": "string",
                    "description": "Fields to include per day (temp, conditions, wind).",
                    "required": False,
                },
            ],
        },
        {
            "name": "api_key_status",
            "description": "Whether WEATHER_API_KEY is configured, with a redacted preview.",
            "parameters": [],
        },
    ],
    "credentials": [
        {
            "name": "WEATHER_API_KEY",
            "display_name": "Weather API Key",
            "description": "Any non-empty value works: the data is fake.",
            "required": True,
            "sensitive": True,
        },
        {
            "name": "WEATHER_UNITS",
            "display_name": "Temperature Units",
            "description": "metric or imperial",
            "required": False,
            "sensitive": False,
            "default": "metric",
        },
    ],
    "runtime": {"type": "uv", "min_version": "0.1.0"},
}

CONDITIONS = ["sunny", "cloudy", "rain", "snow", "fog", "windy"]
UNKNOWN_CITIES = {"atlantis", "el dorado"}
DEFAULT_FIELDS = ["temp", "conditions"]
ALL_FIELDS = {"temp", "conditions", "wind"}

# On stdin EOF, invokes already running get this long to write their answers.
EOF_GRACE_S = 2.0

_write_lock = threading.Lock()
_inflight: set[threading.Thread] = set()


def log(message: str, **fields: Any) -> None:
    """Logs go to stderr as JSON lines: stdout belongs to the protocol."""
    sys.stderr.write(json.dumps({"level": "info", "msg": message, **fields}) + "\n")
    sys.stderr.flush()


def credential(credentials: dict, name: str) -> tuple[str | None, str]:
    """Prefer the value the host injected for this invoke; fall back to the environment (local dev)."""
    value = credentials.get(name)
    if value:
        return str(value), "context"
    value = os.environ.get(name)
    if value:
        return value, "env"
    return None, "missing"


def redact(secret: str) -> str:
    """Only a preview ever reaches `data`: the LLM sees everything in it."""
    prefix = secret.split("_", 1)[0] + "_" if "_" in secret[:6] else ""
    return f"{prefix}…{secret[-4:]}" if len(secret) > 4 else "…"


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("|".join(parts).lower().encode()).digest()[:4], "big")


def _temperature(celsius: int, units: str) -> dict:
    if units == "imperial":
        return {"value": round(celsius * 9 / 5 + 32), "unit": "F"}
    return {"value": celsius, "unit": "C"}


def tool_get_weather(city: str, units: str | None = None, *, credentials: dict) -> dict:
    api_key, source = credential(credentials, "WEATHER_API_KEY")
    if not api_key:
        return {"success": False, "error": "WEATHER_API_KEY not configured"}
    if city.strip().lower() in UNKNOWN_CITIES:
        return {"success": False, "error": f"city not found: {city}"}
    units = units or credential(credentials, "WEATHER_UNITS")[0] or "metric"
    if units not in ("metric", "imperial"):
        return {"success": False, "error": f"unsupported units: {units}"}
    seed = _seed(city)
    return {
        "success": True,
        "data": {
            "city": city,
            "temperature": _temperature(seed % 35 - 5, units),
            "conditions": CONDITIONS[seed % len(CONDITIONS)],
            "humidity": seed % 60 + 30,
            "units": units,
            "api_key": redact(api_key),
            "credential_source": source,
        },
    }


def tool_forecast(city: str, days: int = 3, fields: list | None = None, *, credentials: dict) -> dict:
    api_key, _source = credential(credentials, "WEATHER_API_KEY")
    if not api_key:
        return {"success": False, "error": "WEATHER_API_KEY not configured"}
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 7:
        raise InvalidParams("days must be an integer from 1 to 7")
    wanted = fields or DEFAULT_FIELDS
    unknown = [f for f in wanted if f not in ALL_FIELDS]
    if unknown:
        raise InvalidParams(f"unknown fields: {', '.join(map(str, unknown))}")
    out = []
    for day in range(1, days + 1):
        seed = _seed(city, str(day))
        entry: dict[str, Any] = {"day": day}
        if "temp" in wanted:
            entry["temp_c"] = seed % 35 - 5
        if "conditions" in wanted:
            entry["conditions"] = CONDITIONS[seed % len(CONDITIONS)]
        if "wind" in wanted:
            entry["wind_kph"] = seed % 50
        out.append(entry)
    return {"success": True, "data": {"city": city, "days": out}}


def tool_api_key_status(*, credentials: dict) -> dict:
    api_key, source = credential(credentials, "WEATHER_API_KEY")
    data = {"configured": api_key is not None, "source": source}
    if api_key:
        data["preview"] = redact(api_key)
    return {"success": True, "data": data}


TOOLS: dict[str, Callable[..., dict]] = {
    "get_weather": tool_get_weather,
    "forecast": tool_forecast,
    "api_key_status": tool_api_key_status,
}


class RpcError(Exception):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidParams(RpcError):
    def __init__(self, message: str):
        super().__init__(-32602, message)


def invoke(params: dict) -> dict:
    tool = params.get("tool") or params.get("name") or ""
    fn = TOOLS.get(tool)
    if fn is None:
        raise RpcError(-32601, f"Unknown tool: {tool}")
    arguments = params.get("arguments") or {}
    if not isinstance(arguments, dict):
        raise InvalidParams("arguments must be an object")
    context = params.get("context") or {}
    credentials = context.get("credentials") or {}
    # Tools are called with **arguments like published plugins do; check the binding first so an
    # unknown or missing argument is -32602 rather than a TypeError from inside the tool.
    try:
        inspect.signature(fn).bind(**arguments, credentials=credentials)
    except TypeError as exc:
        raise InvalidParams(f"Invalid params for {tool}: {exc}") from exc
    result = fn(**arguments, credentials=credentials)
    result.setdefault("tool", tool)
    return result


# Responses above this travel by file transport: the host reads and deletes the file.
FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024


def send(message: dict) -> None:
    line = json.dumps({"jsonrpc": "2.0", **message})
    if "method" not in message and len(line.encode("utf-8")) > FILE_TRANSPORT_THRESHOLD_BYTES:
        fd, path = tempfile.mkstemp(prefix="executa-resp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(line)
        line = json.dumps({"jsonrpc": "2.0", "id": message.get("id"), "__file_transport": path})
    with _write_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def serve_invoke(req_id: Any, params: dict) -> None:
    try:
        _serve_invoke(req_id, params)
    finally:
        _inflight.discard(threading.current_thread())


def _serve_invoke(req_id: Any, params: dict) -> None:
    try:
        send({"id": req_id, "result": invoke(params)})
    except RpcError as exc:
        send({"id": req_id, "error": {"code": exc.code, "message": exc.message}})
    except Exception as exc:  # noqa: BLE001 - a bug in a tool must not kill the plugin
        log("invoke crashed", error=repr(exc))
        send({"id": req_id, "error": {"code": -32603, "message": f"Internal error: {exc}"}})


def handle(message: dict) -> None:
    method = message.get("method")
    req_id = message.get("id")
    if method is None:
        return  # a response: this v1 plugin never sends requests, so nothing can be waiting
    if req_id is None:
        return  # a notification: nothing to answer
    if method == "describe":
        send({"id": req_id, "result": MANIFEST})
    elif method == "health":
        send({"id": req_id, "result": {"status": "healthy", "version": VERSION, "tools_count": len(TOOLS)}})
    elif method == "invoke":
        params = message.get("params") or {}
        if not isinstance(params, dict):
            send({"id": req_id, "error": {"code": -32602, "message": "params must be an object"}})
            return
        # One thread per invoke: a slow tool never holds up the others, answers go out as they finish.
        worker = threading.Thread(target=serve_invoke, args=(req_id, params), daemon=True)
        _inflight.add(worker)
        worker.start()
    else:
        send({"id": req_id, "error": {"code": -32601, "message": f"Method not found: {method}"}})


def main() -> int:
    # The host's SIGTERM is a normal stop, not a crash: exit 0.
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    log("py-weather started", version=VERSION)
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
        handle(message)
    deadline = time.monotonic() + EOF_GRACE_S
    for worker in list(_inflight):
        worker.join(max(0.0, deadline - time.monotonic()))
    log("stdin closed, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
