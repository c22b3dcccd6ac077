#!/usr/bin/env python3
"""focus-session — Focus Flow's Executa plugin (protocol 2.0), standard library only.

A focus timer's bookkeeping: it starts a session, ends it (measuring how long you really
focused), reports the running one, and sums up a log of sessions. The window keeps the log in
its storage; the plugin keeps only the session that is running, in memory (one process per
user). Restarting the plugin forgets a running session, and `complete_session` says so.

Two kinds of failure, on purpose:
- what the user got wrong (an empty task, 500 minutes, no running session) is a tool failure,
  `{"success": false, "error": "…"}`; the app shows the message as it is (`tool_failed`);
- what the caller's code got wrong (an unknown tool, a missing or unknown argument, a string
  where a number belongs) is a JSON-RPC error (-32601, -32602).

Run it:   anna-app executa dev --dir . --invoke start_session --args '{"task":"Write"}'
By hand:  echo '{"jsonrpc":"2.0","id":1,"method":"describe"}' | python3 focus_session_plugin.py
Test it:  python3 -m unittest
"""
from __future__ import annotations

import inspect
import json
import secrets
import signal
import sys
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Dict, List, Optional

VERSION = "0.1.0"
PROTOCOL_VERSION = "2.0"

TASK_MAX_CHARS = 80
MINUTES_MIN = 1
MINUTES_MAX = 180
DEFAULT_MINUTES = 25
# `stats` reads at most this many sessions: the window's log is capped well below it.
STATS_MAX_SESSIONS = 500

MANIFEST: Dict[str, Any] = {
    "display_name": "Focus Session",
    "version": VERSION,
    "description": "Start, finish and sum up focus sessions (a pomodoro timer's bookkeeping).",
    "author": "Anna examples",
    "icon": "⏱",
    "category": "productivity",
    "license": "Apache-2.0",
    "tools": [
        {
            "name": "start_session",
            "description": "Start a focus session on a task. Fails while another session is running.",
            "parameters": [
                {"name": "task", "type": "string", "description": f"What to focus on (1-{TASK_MAX_CHARS} characters).", "required": True},
                {
                    "name": "minutes",
                    "type": "integer",
                    "description": f"Planned length in minutes ({MINUTES_MIN}-{MINUTES_MAX}).",
                    "required": False,
                    "default": DEFAULT_MINUTES,
                },
            ],
        },
        {
            "name": "complete_session",
            "description": "End the running session and report how long it lasted and whether it ran its full length.",
            "parameters": [
                {"name": "session_id", "type": "string", "description": "The id start_session returned.", "required": True},
            ],
        },
        {
            "name": "current_session",
            "description": "The running session with its remaining seconds, or null when none is running.",
            "parameters": [],
        },
        {
            "name": "stats",
            "description": "Sum up a log of finished sessions: count, focused minutes, completion rate, top task.",
            "parameters": [
                {
                    "name": "sessions",
                    "type": "array",
                    "items_type": "object",
                    "description": "Finished sessions as complete_session returned them ({task, focused_seconds, completed, started_at}).",
                    "required": True,
                },
                {
                    "name": "day",
                    "type": "string",
                    "description": "Only sessions started on this UTC day (YYYY-MM-DD).",
                    "required": False,
                },
            ],
        },
    ],
}


class RpcError(Exception):
    """An error answered as a JSON-RPC error frame instead of a tool result."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidParams(RpcError):
    def __init__(self, message: str) -> None:
        super().__init__(-32602, message)


def now() -> datetime:
    """The clock, one function so the tests can set it."""
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(value: Any, field: str) -> datetime:
    if not isinstance(value, str):
        raise InvalidParams(f"{field} must be an ISO date-time string like 2026-11-30T09:00:00Z")
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise InvalidParams(f"{field} {value!r} is not an ISO date-time like 2026-11-30T09:00:00Z") from exc


def failure(message: str) -> Dict[str, Any]:
    return {"success": False, "error": message}


def describe_length(seconds: int) -> str:
    minutes, rest = divmod(max(0, seconds), 60)
    if minutes == 0:
        return f"{rest} s"
    return f"{minutes} min" if rest == 0 else f"{minutes} min {rest} s"


# The running session, if any: one plugin process serves one user.
_active: Optional[Dict[str, Any]] = None


def tool_start_session(task: Any, minutes: Any = DEFAULT_MINUTES) -> Dict[str, Any]:
    global _active
    if not isinstance(task, str):
        raise InvalidParams("task must be a string")
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise InvalidParams(f"minutes must be a whole number from {MINUTES_MIN} to {MINUTES_MAX}")
    title = " ".join(task.split())
    if not title:
        return failure("Name the task you want to focus on (it is empty).")
    if len(title) > TASK_MAX_CHARS:
        return failure(f"The task name is {len(title)} characters long; keep it to {TASK_MAX_CHARS}.")
    if not MINUTES_MIN <= minutes <= MINUTES_MAX:
        return failure(f"A session lasts {MINUTES_MIN} to {MINUTES_MAX} minutes, not {minutes}.")
    if _active is not None:
        return failure(f"“{_active['task']}” is still running (started {_active['started_at']}); complete it first.")
    started = now()
    _active = {
        "id": "fs-" + secrets.token_hex(4),
        "task": title,
        "minutes": minutes,
        "started_at": iso(started),
        "ends_at": iso(started + timedelta(minutes=minutes)),
    }
    return {
        "success": True,
        "data": {"session": dict(_active), "message": f"Focus on “{title}” for {minutes} min."},
    }


def tool_complete_session(session_id: Any) -> Dict[str, Any]:
    global _active
    if not isinstance(session_id, str) or not session_id:
        raise InvalidParams("session_id must be the non-empty id start_session returned")
    if _active is None:
        return failure("No session is running (the plugin may have restarted); start a new one.")
    if _active["id"] != session_id:
        return failure(f"Session {session_id} is not the running one ({_active['id']}, “{_active['task']}”).")
    ended = now()
    started = parse_iso(_active["started_at"], "started_at")
    focused = max(0, int((ended - started).total_seconds()))
    completed = focused >= _active["minutes"] * 60
    session = {**_active, "ended_at": iso(ended), "focused_seconds": focused, "completed": completed}
    _active = None
    if completed:
        message = f"Done: {focused // 60} min on “{session['task']}”. Take a break."
    else:
        message = f"Stopped “{session['task']}” after {describe_length(focused)} of {session['minutes']} min."
    return {"success": True, "data": {"session": session, "message": message}}


def tool_current_session() -> Dict[str, Any]:
    if _active is None:
        return {"success": True, "data": {"session": None}}
    ends = parse_iso(_active["ends_at"], "ends_at")
    remaining = max(0, int((ends - now()).total_seconds()))
    return {"success": True, "data": {"session": dict(_active), "remaining_seconds": remaining}}


def _checked_session(entry: Any, index: int) -> Dict[str, Any]:
    where = f"sessions[{index}]"
    if not isinstance(entry, dict):
        raise InvalidParams(f"{where} must be an object like {{\"task\": \"Write\", \"focused_seconds\": 1500, \"completed\": true, \"started_at\": \"…\"}}")
    task = entry.get("task")
    seconds = entry.get("focused_seconds")
    completed = entry.get("completed")
    if not isinstance(task, str) or not task.strip():
        raise InvalidParams(f"{where}.task must be a non-empty string")
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 0:
        raise InvalidParams(f"{where}.focused_seconds must be a whole number of seconds ≥ 0")
    if not isinstance(completed, bool):
        raise InvalidParams(f"{where}.completed must be true or false")
    parse_iso(entry.get("started_at"), f"{where}.started_at")
    return entry


def tool_stats(sessions: Any, day: Any = None) -> Dict[str, Any]:
    if not isinstance(sessions, list):
        raise InvalidParams("sessions must be an array of finished sessions")
    if len(sessions) > STATS_MAX_SESSIONS:
        raise InvalidParams(f"sessions holds {len(sessions)} entries; send at most {STATS_MAX_SESSIONS}")
    checked: List[Dict[str, Any]] = [_checked_session(entry, i) for i, entry in enumerate(sessions)]
    if day is not None:
        if not isinstance(day, str):
            raise InvalidParams("day must be a YYYY-MM-DD string")
        try:
            datetime.strptime(day, "%Y-%m-%d")
        except ValueError as exc:
            raise InvalidParams(f"day {day!r} is not a date like 2026-11-30") from exc
        checked = [s for s in checked if s["started_at"].startswith(day)]
    count = len(checked)
    completed = sum(1 for s in checked if s["completed"])
    focused_seconds = sum(int(s["focused_seconds"]) for s in checked)
    per_task: Dict[str, int] = {}
    for s in checked:
        per_task[s["task"]] = per_task.get(s["task"], 0) + int(s["focused_seconds"])
    top_task = max(per_task, key=lambda t: (per_task[t], t)) if per_task else None
    focused_minutes = focused_seconds // 60
    if count == 0:
        summary = "No sessions yet."
    else:
        noun = "session" if count == 1 else "sessions"
        summary = f"{count} {noun} · {focused_minutes} min focused · {completed} completed"
    return {
        "success": True,
        "data": {
            "sessions": count,
            "completed": completed,
            "focused_minutes": focused_minutes,
            "completion_rate": round(completed / count, 2) if count else 0,
            "top_task": top_task,
            "day": day,
            "summary": summary,
        },
    }


TOOLS: Dict[str, Callable[..., Dict[str, Any]]] = {
    "start_session": tool_start_session,
    "complete_session": tool_complete_session,
    "current_session": tool_current_session,
    "stats": tool_stats,
}


def invoke(params: Dict[str, Any]) -> Dict[str, Any]:
    tool = params.get("tool") or params.get("name") or ""
    fn = TOOLS.get(tool)
    if fn is None:
        raise RpcError(-32601, f"Unknown tool: {tool!r}; this plugin has {', '.join(TOOLS)}")
    arguments = params.get("arguments") or {}
    if not isinstance(arguments, dict):
        raise InvalidParams("arguments must be an object")
    # Bind first so a missing or unknown argument is -32602, not a TypeError inside the tool.
    try:
        inspect.signature(fn).bind(**arguments)
    except TypeError as exc:
        raise InvalidParams(f"Invalid params for {tool}: {exc}") from exc
    result = fn(**arguments)
    result.setdefault("tool", tool)
    return result


def log(message: str, **fields: Any) -> None:
    """Logs are JSON lines on stderr: stdout belongs to the protocol."""
    sys.stderr.write(json.dumps({"level": "info", "msg": message, **fields}) + "\n")
    sys.stderr.flush()


def send(message: Dict[str, Any]) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False) + "\n")
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
                "serverInfo": {"name": "focus-session", "version": VERSION},
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
        send({"id": req_id, "result": {"status": "healthy", "version": VERSION, "running": _active is not None}})
    elif method == "shutdown":
        send({"id": req_id, "result": {}})
        return False
    else:
        send({"id": req_id, "error": {"code": -32601, "message": f"Method not found: {method}"}})
    return True


def main() -> int:
    # The host's SIGTERM is a normal stop, not a crash.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    log("focus-session started", version=VERSION)
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
