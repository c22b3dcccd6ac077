// The banner `npm start` prints: plain text in a pipe, the admin's password only when given,
// the offline model's hint, the sandbox as the probe found it.
import { describe, expect, it } from "vitest";
import {
  modelPhrase,
  renderBanner,
  sandboxPhrase,
  type BannerFacts,
} from "../../src/cli/banner.js";

const FACTS: BannerFacts = {
  url: "http://127.0.0.1:8080",
  admin: { email: "admin@anna.localhost", password: "s3cret-Pa55word-xyzABC12" },
  chatModel: { provider: "offline", model: "offline" },
  sandbox: "bubblewrap: each plugin in its own PID namespace",
  dataDir: "/srv/anna/.anna-data",
  database: { dialect: "sqlite", location: "/srv/anna/.anna-data/nexus.sqlite" },
  apps: ["focus-flow 0.1.0 published to the App Store", "picture-book-studio 0.1.0 published"],
  dashboard: true,
};

describe("renderBanner", () => {
  it("says where to open it, how to sign in, the model, the sandbox, the data and how to stop", () => {
    const text = renderBanner(FACTS, false);
    expect(text).not.toContain("\u001b[");
    expect(text).toContain("  open       http://127.0.0.1:8080/\n");
    expect(text).toContain("admin@anna.localhost  password s3cret-Pa55word-xyzABC12");
    expect(text).toContain("offline model — no real model configured; set ANNA_LLM_PROVIDER=…");
    expect(text).toContain("  sandbox    bubblewrap");
    expect(text).toContain("  data       /srv/anna/.anna-data\n");
    expect(text).toContain("  apps       focus-flow 0.1.0 published to the App Store\n");
    expect(text).toContain("             picture-book-studio 0.1.0 published\n");
    expect(text).toContain("  stop       Ctrl-C\n");
  });

  it("has no password line after the first start, and colour only when asked", () => {
    const text = renderBanner({ ...FACTS, admin: undefined }, true);
    expect(text).not.toContain("password");
    expect(text).toContain("\u001b[36mhttp://127.0.0.1:8080/\u001b[39m");
  });

  it("names a PostgreSQL database and an unbuilt dashboard", () => {
    const text = renderBanner(
      {
        ...FACTS,
        dashboard: false,
        database: { dialect: "postgres", location: "postgres://anna@db/anna" },
      },
      false,
    );
    expect(text).toContain("postgres://anna@db/anna (files in /srv/anna/.anna-data)");
    expect(text).toContain("the dashboard is not built: run `npm run build`");
  });
});

describe("modelPhrase and sandboxPhrase", () => {
  it("names a real model by provider and id", () => {
    expect(modelPhrase({ provider: "openai", model: "gpt-4.1-mini" })).toBe("openai gpt-4.1-mini");
  });

  it("says why plugins are not sandboxed", () => {
    const none = () => ({ kind: "none" as const, reason: "bwrap is not on PATH" });
    expect(sandboxPhrase({}, none)).toBe("none — bwrap is not on PATH; plugins run as this user");
    expect(sandboxPhrase({ ANNA_EXECUTA_SUPERVISOR: "none" }, none)).toContain(
      "off (ANNA_EXECUTA_SUPERVISOR=none)",
    );
  });
});
