// App slugs follow app.json's rule; the handle and tool id derived from them stay valid
// executa names whatever the slug looks like.
import fc from "fast-check";
import { APP_SLUG_PATTERN } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { slugProblem, toolIdProblem } from "../../src/executa-init/names.js";
import {
  appDisplayName,
  appSlugProblem,
  appToolId,
  executaHandle,
  skillName,
  suggestAppSlug,
} from "../../src/init/names.js";

describe("appSlugProblem", () => {
  it("accepts app.json slugs, including ones an executa slug would refuse", () => {
    for (const slug of ["focus-flow", "abc", "3d-viewer", "a--b", "x".repeat(80)]) {
      expect(appSlugProblem(slug), slug).toBeUndefined();
    }
  });

  it("refuses what app.json refuses: too short, too long, uppercase, edge hyphens", () => {
    for (const slug of ["ab", "x".repeat(81), "Focus", "-abc", "abc-", "a_b", "a b", ""]) {
      expect(appSlugProblem(slug), slug).toMatch(/is not a valid app slug/);
    }
  });

  it("suggests a valid slug for a folder name when one exists", () => {
    expect(suggestAppSlug("My_Focus Flow")).toBe("my-focus-flow");
    expect(suggestAppSlug("ab")).toBeUndefined();
  });
});

describe("executaHandle", () => {
  it("is the slug itself when the slug is a valid executa slug (the quickstart's tree)", () => {
    expect(executaHandle("focus-flow")).toBe("focus-flow");
    expect(appToolId("focus-flow")).toBe("tool-dev-focus-flow");
  });

  it("collapses dashes and prefixes a leading digit", () => {
    expect(executaHandle("3d--viewer")).toBe("app-3d-viewer");
    expect(executaHandle("a--b")).toBe("a-b");
  });

  it("turns every valid app slug into a valid executa slug, tool id and skill name", () => {
    const slug = fc.stringMatching(APP_SLUG_PATTERN);
    fc.assert(
      fc.property(slug, (s) => {
        const handle = executaHandle(s);
        expect(slugProblem(handle)).toBeUndefined();
        expect(toolIdProblem(appToolId(handle))).toBeUndefined();
        expect(skillName(handle)).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      }),
    );
  });
});

describe("appDisplayName", () => {
  it("capitalises each word and ignores runs of dashes", () => {
    expect(appDisplayName("focus-flow")).toBe("Focus Flow");
    expect(appDisplayName("3d--viewer")).toBe("3d Viewer");
  });
});
