// The `apps.*` answer shape: what the server and the dev harness both produce, and what it needs.
import { describe, expect, it } from "vitest";
import { InstalledAppSchema } from "../../src/app/installed-app.js";

describe("InstalledApp", () => {
  it("accepts a server entry and a dev-harness entry (slug as id, no handle)", () => {
    const server = {
      app_id: "42",
      slug: "notes",
      handle: "acme",
      name: "Notes",
      description: null,
      icon_url: "https://cdn/notes.png",
      version_id: "7",
      views: [{ name: "main", title: "Notes", default: true }, { name: "list" }],
    };
    const harness = { app_id: "notes", slug: "notes", name: "notes", views: [{ name: "main" }] };
    expect(InstalledAppSchema.parse(server)).toEqual(server);
    expect(InstalledAppSchema.parse(harness)).toEqual(harness);
  });

  it("needs app_id, slug, name and views", () => {
    const result = InstalledAppSchema.safeParse({ slug: "notes", name: "Notes" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["app_id", "views"]);
  });
});
