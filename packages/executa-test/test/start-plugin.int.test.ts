import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { LaunchError } from "@anna-ai/executa-host";
import { startPlugin, startPluginCommand } from "@anna-ai/executa-test";

describe("starting plugins", () => {
  it("throws the host's launch error, naming the folder, when there is nothing to start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "executa-test-empty-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const started = startPlugin({ dir });
    await expect(started).rejects.toBeInstanceOf(LaunchError);
    await expect(started).rejects.toThrow(`${dir}: no plugin found; add executa.json`);
  });

  it("fails the first wait with the spawn error, not a timeout, when the command does not exist", async () => {
    const client = startPluginCommand({ command: ["executa-test-no-such-tool"], cwd: tmpdir() });
    onTestFinished(() => client.dispose());
    await expect(client.describe()).rejects.toThrow(
      /plugin exited before .*spawn failed: spawn executa-test-no-such-tool ENOENT/s,
    );
  });
});
