// What an app may do, in words: every manifest permission the server knows has its sentence,
// Host API areas and capabilities are described, and a name the dashboard does not know yet is
// still shown rather than hidden.
import { APP_PERMISSIONS } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { describeRequested, PERMISSION_WORDS } from "../src/permissions.js";

describe("describeRequested", () => {
  it("has words for exactly the permissions app-schema allows", () => {
    expect(Object.keys(PERMISSION_WORDS).sort()).toEqual([...APP_PERMISSIONS].sort());
  });

  it("lists permissions, then Host API areas (window is implied), then capabilities", () => {
    expect(
      describeRequested({
        permissions: ["storage.write", "llm.complete"],
        host_api: { window: ["*"], storage: ["get", "set"], agent: { session: { auto: true } } },
        host_capabilities: ["camera"],
      }),
    ).toEqual([
      "Save data for you",
      "Ask the AI model questions on your behalf",
      "May use its storage (get, set)",
      "May run agent sessions",
      "Needs the host capability “camera”",
    ]);
  });

  it("shows a permission or namespace it has no words for by its name", () => {
    expect(
      describeRequested({
        permissions: ["teleport"],
        host_api: { warp: ["go"] },
        host_capabilities: [],
      }),
    ).toEqual(["Use the “teleport” permission", "May use the “warp” Host API (go)"]);
  });

  it("says nothing for an app that asks for nothing", () => {
    expect(describeRequested({ permissions: [], host_api: {}, host_capabilities: [] })).toEqual([]);
  });
});
