"""Tests for the {{slug}} plugin: each one starts it over stdio, like the host does.

Run from the plugin folder: python3 -m unittest
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import unittest
from pathlib import Path
from typing import Any, Dict, List, Optional

PLUGIN = Path(__file__).resolve().parent.parent / "{{module}}.py"
# A plugin that does not answer within this many seconds has hung: fail instead of waiting.
TIMEOUT_S = 10


def run_plugin(requests: List[Any], env: Optional[Dict[str, str]] = None) -> Dict[Any, Dict[str, Any]]:
    """Writes the requests (dicts, or raw strings), closes stdin and returns the answers by id."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    child_env = {k: v for k, v in os.environ.items() if k != "HELLO_GREETING"}
    child_env.update(env or {})
    done = subprocess.run(
        [sys.executable, str(PLUGIN)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env=child_env,
    )
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {answer.get("id"): answer for answer in answers}


def invoke(req_id: int, tool: str, arguments: Dict[str, Any], credentials: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    context: Dict[str, Any] = {"invoke_id": f"inv-{req_id}"}
    if credentials is not None:
        context["credentials"] = credentials
    return {
        "jsonrpc": "2.0",
        "id": req_id,
        "method": "invoke",
        "params": {"tool": tool, "name": tool, "arguments": arguments, "invoke_id": f"inv-{req_id}", "context": context},
    }


class HandshakeTests(unittest.TestCase):
    def test_initialize_describe_and_health_answer_then_eof_exits_zero(self) -> None:
        answers = run_plugin([
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2.0"}},
            {"jsonrpc": "2.0", "id": 2, "method": "describe"},
            {"jsonrpc": "2.0", "id": 3, "method": "health"},
        ])
        self.assertEqual(answers[1]["result"]["protocolVersion"], "2.0")
        tools = [tool["name"] for tool in answers[2]["result"]["tools"]]
        self.assertEqual(tools, ["hello"])
        self.assertEqual(answers[3]["result"]["status"], "healthy")

    def test_shutdown_answers_and_exits_while_stdin_is_still_open(self) -> None:
        child = subprocess.Popen(
            [sys.executable, str(PLUGIN)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}) + "\n")
            child.stdin.flush()
            self.assertEqual(json.loads(child.stdout.readline()), {"jsonrpc": "2.0", "id": 9, "result": {}})
            self.assertEqual(child.wait(timeout=TIMEOUT_S), 0)
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()
            for stream in (child.stdin, child.stdout):
                if stream is not None:
                    stream.close()

    def test_a_line_that_is_not_json_gets_a_parse_error_and_the_plugin_carries_on(self) -> None:
        answers = run_plugin(["not json", {"jsonrpc": "2.0", "id": 1, "method": "health"}])
        self.assertEqual(answers[None]["error"]["code"], -32700)
        self.assertEqual(answers[1]["result"]["status"], "healthy")


class HelloTests(unittest.TestCase):
    def test_hello_greets_by_name(self) -> None:
        answers = run_plugin([invoke(1, "hello", {"name": "Ada"})])
        result = answers[1]["result"]
        self.assertTrue(result["success"])
        self.assertEqual(result["data"], {"message": "Hello, Ada!", "greeting_source": "default"})

    def test_the_context_credential_wins_over_the_environment(self) -> None:
        answers = run_plugin(
            [invoke(1, "hello", {"name": "Ada"}, {"HELLO_GREETING": "Howdy"})],
            env={"HELLO_GREETING": "Hi"},
        )
        self.assertEqual(answers[1]["result"]["data"], {"message": "Howdy, Ada!", "greeting_source": "context"})

    def test_the_environment_is_the_fallback(self) -> None:
        answers = run_plugin([invoke(1, "hello", {"name": "Ada"})], env={"HELLO_GREETING": "Hi"})
        self.assertEqual(answers[1]["result"]["data"], {"message": "Hi, Ada!", "greeting_source": "env"})

    def test_unknown_tools_and_arguments_are_json_rpc_errors(self) -> None:
        answers = run_plugin([
            invoke(1, "nope", {}),
            invoke(2, "hello", {"name": "Ada", "age": 36}),
            invoke(3, "hello", {}),
        ])
        self.assertEqual(answers[1]["error"]["code"], -32601)
        self.assertEqual(answers[2]["error"]["code"], -32602)
        self.assertEqual(answers[3]["error"]["code"], -32602)


if __name__ == "__main__":
    unittest.main()
