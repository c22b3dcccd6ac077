"""Plugin tests, no host needed: `python3 -m unittest` from the plugin folder."""
from __future__ import annotations

import json
import subprocess
import sys
import unittest
from datetime import datetime, timedelta, timezone
from pathlib import Path
from unittest import mock

PLUGIN_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PLUGIN_DIR))

import focus_session_plugin as plugin  # noqa: E402

T0 = datetime(2026, 11, 30, 9, 0, 0, tzinfo=timezone.utc)


def call(tool: str, **arguments):
    return plugin.invoke({"tool": tool, "arguments": arguments})


class Clocked(unittest.TestCase):
    """Each test starts with no running session and a clock it moves by hand."""

    def setUp(self) -> None:
        plugin._active = None
        self.moment = T0
        patcher = mock.patch.object(plugin, "now", lambda: self.moment)
        patcher.start()
        self.addCleanup(patcher.stop)

    def advance(self, **delta) -> None:
        self.moment = self.moment + timedelta(**delta)


class SessionTests(Clocked):
    def test_start_then_complete_a_full_session(self):
        started = call("start_session", task="  Write   the report ", minutes=25)
        self.assertTrue(started["success"])
        session = started["data"]["session"]
        self.assertEqual(session["task"], "Write the report")
        self.assertEqual(session["started_at"], "2026-11-30T09:00:00Z")
        self.assertEqual(session["ends_at"], "2026-11-30T09:25:00Z")
        self.assertRegex(session["id"], r"^fs-[0-9a-f]{8}$")

        self.advance(minutes=25, seconds=3)
        done = call("complete_session", session_id=session["id"])
        self.assertEqual(done["data"]["session"]["focused_seconds"], 25 * 60 + 3)
        self.assertTrue(done["data"]["session"]["completed"])
        self.assertEqual(done["data"]["message"], "Done: 25 min on “Write the report”. Take a break.")
        self.assertIsNone(call("current_session")["data"]["session"])

    def test_stopping_early_is_not_completed(self):
        session = call("start_session", task="Read", minutes=5)["data"]["session"]
        self.advance(minutes=2, seconds=5)
        done = call("complete_session", session_id=session["id"])["data"]
        self.assertFalse(done["session"]["completed"])
        self.assertEqual(done["message"], "Stopped “Read” after 2 min 5 s of 5 min.")

    def test_minutes_default_to_25(self):
        self.assertEqual(call("start_session", task="Plan")["data"]["session"]["minutes"], 25)

    def test_current_session_counts_down(self):
        call("start_session", task="Plan", minutes=10)
        self.advance(minutes=3)
        current = call("current_session")["data"]
        self.assertEqual(current["session"]["task"], "Plan")
        self.assertEqual(current["remaining_seconds"], 7 * 60)

    def test_one_session_at_a_time(self):
        call("start_session", task="First")
        second = call("start_session", task="Second")
        self.assertFalse(second["success"])
        self.assertIn("“First” is still running", second["error"])
        self.assertIn("complete it first", second["error"])


class UserErrorTests(Clocked):
    """What the user typed wrong is a tool failure with a message the window shows as it is."""

    def test_empty_task(self):
        self.assertEqual(
            call("start_session", task="   "),
            {"success": False, "error": "Name the task you want to focus on (it is empty).", "tool": "start_session"},
        )

    def test_task_too_long(self):
        result = call("start_session", task="x" * 81)
        self.assertFalse(result["success"])
        self.assertIn("81 characters long; keep it to 80", result["error"])

    def test_minutes_out_of_range(self):
        for minutes in (0, 181):
            result = call("start_session", task="Write", minutes=minutes)
            self.assertEqual(result["error"], f"A session lasts 1 to 180 minutes, not {minutes}.")

    def test_complete_without_a_running_session(self):
        result = call("complete_session", session_id="fs-00000000")
        self.assertFalse(result["success"])
        self.assertIn("No session is running", result["error"])

    def test_complete_someone_elses_session(self):
        running = call("start_session", task="Mine")["data"]["session"]["id"]
        result = call("complete_session", session_id="fs-deadbeef")
        self.assertIn(f"not the running one ({running}", result["error"])
        self.assertIsNotNone(call("current_session")["data"]["session"])


class CallerErrorTests(Clocked):
    """What the calling code got wrong is a JSON-RPC error."""

    def assertRpcError(self, code: int, fragment: str, tool: str, **arguments):
        with self.assertRaises(plugin.RpcError) as caught:
            call(tool, **arguments)
        self.assertEqual(caught.exception.code, code)
        self.assertIn(fragment, caught.exception.message)

    def test_unknown_tool(self):
        self.assertRpcError(-32601, "Unknown tool: 'pause'", "pause")

    def test_missing_and_unknown_arguments(self):
        self.assertRpcError(-32602, "Invalid params for start_session", "start_session")
        self.assertRpcError(-32602, "Invalid params for start_session", "start_session", task="a", colour="red")

    def test_wrong_types(self):
        self.assertRpcError(-32602, "minutes must be a whole number", "start_session", task="a", minutes="25")
        self.assertRpcError(-32602, "minutes must be a whole number", "start_session", task="a", minutes=True)
        self.assertRpcError(-32602, "task must be a string", "start_session", task=7)

    def test_stats_names_the_bad_entry(self):
        good = {"task": "a", "focused_seconds": 60, "completed": True, "started_at": "2026-11-30T09:00:00Z"}
        self.assertRpcError(-32602, "sessions[1].focused_seconds", "stats", sessions=[good, {**good, "focused_seconds": -1}])
        self.assertRpcError(-32602, "sessions[0].started_at 'noon'", "stats", sessions=[{**good, "started_at": "noon"}])
        self.assertRpcError(-32602, "day '30/11' is not a date", "stats", sessions=[], day="30/11")


class StatsTests(unittest.TestCase):
    LOG = [
        {"task": "Write", "focused_seconds": 1500, "completed": True, "started_at": "2026-11-30T09:00:00Z"},
        {"task": "Read", "focused_seconds": 600, "completed": False, "started_at": "2026-11-30T10:00:00Z"},
        {"task": "Write", "focused_seconds": 1500, "completed": True, "started_at": "2026-11-29T09:00:00Z"},
    ]

    def test_sums_the_whole_log(self):
        data = call("stats", sessions=self.LOG)["data"]
        self.assertEqual(
            data,
            {
                "sessions": 3,
                "completed": 2,
                "focused_minutes": 60,
                "completion_rate": 0.67,
                "top_task": "Write",
                "day": None,
                "summary": "3 sessions · 60 min focused · 2 completed",
            },
        )

    def test_one_day(self):
        data = call("stats", sessions=self.LOG, day="2026-11-30")["data"]
        self.assertEqual(data["summary"], "2 sessions · 35 min focused · 1 completed")

    def test_empty_log(self):
        data = call("stats", sessions=[], day="2026-11-30")["data"]
        self.assertEqual(data["summary"], "No sessions yet.")
        self.assertEqual(data["completion_rate"], 0)


class StdioTests(unittest.TestCase):
    def test_speaks_json_rpc_over_stdio_and_exits_on_eof(self):
        frames = [
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2.0"}},
            {"jsonrpc": "2.0", "id": 1, "method": "describe"},
            {"jsonrpc": "2.0", "id": 2, "method": "invoke", "params": {"tool": "start_session", "arguments": {"task": ""}}},
            {"jsonrpc": "2.0", "id": 3, "method": "invoke", "params": {"tool": "nope"}},
        ]
        completed = subprocess.run(
            [sys.executable, str(PLUGIN_DIR / "focus_session_plugin.py")],
            input="".join(json.dumps(f) + "\n" for f in frames) + "not json\n",
            capture_output=True,
            text=True,
            timeout=10,
        )
        self.assertEqual(completed.returncode, 0)
        answers = [json.loads(line) for line in completed.stdout.splitlines()]
        self.assertEqual(answers[0]["result"]["protocolVersion"], "2.0")
        self.assertEqual([t["name"] for t in answers[1]["result"]["tools"]], list(plugin.TOOLS))
        self.assertFalse(answers[2]["result"]["success"])
        self.assertEqual(answers[3]["error"]["code"], -32601)
        self.assertEqual(answers[4]["error"]["code"], -32700)
        self.assertIn("focus-session started", completed.stderr)


if __name__ == "__main__":
    unittest.main()
