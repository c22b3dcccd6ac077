"""Plugin-level tests: no host needed. Run with `python3 -m unittest` from the plugin folder."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import unittest
from pathlib import Path
from unittest import mock

PLUGIN_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PLUGIN_DIR))

import weather_plugin  # noqa: E402


class ToolTests(unittest.TestCase):
    def test_context_credential_wins_over_environment(self):
        with mock.patch.dict(os.environ, {"WEATHER_API_KEY": "sk_env_0000"}):
            result = weather_plugin.invoke({"tool": "get_weather", "arguments": {"city": "Oslo"}, "context": {"credentials": {"WEATHER_API_KEY": "sk_ctx_1234"}}})
        self.assertTrue(result["success"])
        self.assertEqual(result["data"]["api_key"], "sk_…1234")
        self.assertEqual(result["data"]["credential_source"], "context")

    def test_environment_is_the_fallback(self):
        with mock.patch.dict(os.environ, {"WEATHER_API_KEY": "sk_env_5678"}):
            result = weather_plugin.invoke({"tool": "api_key_status", "arguments": {}})
        self.assertEqual(result["data"], {"configured": True, "source": "env", "preview": "sk_…5678"})

    def test_missing_key_is_a_tool_failure_not_an_rpc_error(self):
        with mock.patch.dict(os.environ, {}, clear=True):
            result = weather_plugin.invoke({"tool": "get_weather", "arguments": {"city": "Oslo"}})
        self.assertEqual(result, {"success": False, "error": "WEATHER_API_KEY not configured", "tool": "get_weather"})

    def test_unknown_argument_is_invalid_params(self):
        with self.assertRaises(weather_plugin.RpcError) as caught:
            weather_plugin.invoke({"tool": "get_weather", "arguments": {"city": "Oslo", "country": "NO"}})
        self.assertEqual(caught.exception.code, -32602)


class StdioTests(unittest.TestCase):
    def test_describe_returns_the_bare_manifest_and_exits_on_eof(self):
        completed = subprocess.run(
            [sys.executable, str(PLUGIN_DIR / "weather_plugin.py")],
            input='{"jsonrpc":"2.0","id":1,"method":"describe"}\n',
            capture_output=True,
            text=True,
            timeout=10,
        )
        self.assertEqual(completed.returncode, 0)
        response = json.loads(completed.stdout.splitlines()[0])
        self.assertEqual(response["id"], 1)
        self.assertIn("tools", response["result"])
        self.assertNotIn("manifest", response["result"])


if __name__ == "__main__":
    unittest.main()
