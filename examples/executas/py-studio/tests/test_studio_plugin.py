"""Plugin-level tests: the test plays the host over the plugin's stdio. No host needed.

Run with `python3 -m unittest` from the plugin folder.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import unittest
from pathlib import Path

PLUGIN = Path(__file__).resolve().parent.parent / "studio_plugin.py"
WATCHDOG_S = 10


class FakeHost:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(PLUGIN)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        # A hung plugin must fail the test, not hang it.
        self.watchdog = threading.Timer(WATCHDOG_S, self.proc.kill)
        self.watchdog.start()

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError("plugin closed stdout")
        return json.loads(line)

    def close(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(timeout=WATCHDOG_S)
        self.proc.stdout.close()
        self.watchdog.cancel()
        return code


class StudioTests(unittest.TestCase):
    def setUp(self) -> None:
        self.host = FakeHost()
        self.addCleanup(self.host.close)

    def test_summarize_asks_the_host_for_a_completion(self):
        self.host.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2.0"}})
        self.assertEqual(self.host.read()["result"]["protocolVersion"], "2.0")
        self.host.send({"jsonrpc": "2.0", "id": 1, "method": "invoke", "params": {"tool": "summarize", "arguments": {"text": "long text"}, "context": {"invoke_id": "inv-1"}}})
        reverse = self.host.read()
        self.assertEqual(reverse["method"], "sampling/createMessage")
        self.assertEqual(reverse["params"]["metadata"], {"executa_invoke_id": "inv-1", "tool": "summarize"})
        self.host.send({"jsonrpc": "2.0", "id": reverse["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "short"}, "model": "m"}})
        result = self.host.read()
        self.assertEqual(result["id"], 1)
        self.assertEqual(result["result"]["data"]["summary"], "short")

    def test_clients_stay_off_unless_the_host_offers_2_0(self):
        self.host.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2.1"}})
        self.assertEqual(self.host.read()["result"]["protocolVersion"], "2.1")
        self.host.send({"jsonrpc": "2.0", "id": 1, "method": "invoke", "params": {"tool": "summarize", "arguments": {"text": "x"}, "context": {}}})
        self.assertEqual(self.host.read()["error"]["code"], -32008)


if __name__ == "__main__":
    unittest.main()
