// The Developer Terms settings of `anna-nexus start` from the environment: a terms file needs a
// new version, bad values are usage errors naming the variable and what would be right.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { developerTermsFromEnv } from "../../src/cli/developer-terms-env.js";

const dir = mkdtempSync(join(tmpdir(), "anna-terms-"));
writeFileSync(join(dir, "terms.md"), "# Terms of this server\n");
writeFileSync(join(dir, "empty.md"), "  \n");

describe("developerTermsFromEnv", () => {
  it("changes nothing when unset", () => {
    expect(developerTermsFromEnv({}, dir)).toEqual({});
  });

  it("reads a terms file relative to the working folder, with its version", () => {
    expect(
      developerTermsFromEnv(
        { ANNA_DEVELOPER_TERMS_FILE: "terms.md", ANNA_DEVELOPER_TERMS_VERSION: "2026-12" },
        dir,
      ),
    ).toEqual({ developerTerms: "# Terms of this server\n", developerTosVersion: "2026-12" });
  });

  it("turns self-serve activation off and on", () => {
    expect(developerTermsFromEnv({ ANNA_SELF_SERVE_DEVELOPER: "0" }, dir)).toEqual({
      selfServeDeveloper: false,
    });
    expect(developerTermsFromEnv({ ANNA_SELF_SERVE_DEVELOPER: "yes" }, dir)).toEqual({
      selfServeDeveloper: true,
    });
  });

  it("refuses what it cannot use, saying what would be right", () => {
    expect(() => developerTermsFromEnv({ ANNA_DEVELOPER_TERMS_FILE: "terms.md" }, dir)).toThrow(
      /needs ANNA_DEVELOPER_TERMS_VERSION too/,
    );
    expect(() =>
      developerTermsFromEnv(
        { ANNA_DEVELOPER_TERMS_FILE: "missing.md", ANNA_DEVELOPER_TERMS_VERSION: "2" },
        dir,
      ),
    ).toThrow(/missing\.md: ENOENT; give a readable Markdown file/);
    expect(() =>
      developerTermsFromEnv(
        { ANNA_DEVELOPER_TERMS_FILE: "empty.md", ANNA_DEVELOPER_TERMS_VERSION: "2" },
        dir,
      ),
    ).toThrow(/is empty/);
    expect(() => developerTermsFromEnv({ ANNA_DEVELOPER_TERMS_VERSION: "a b" }, dir)).toThrow(
      /ANNA_DEVELOPER_TERMS_VERSION is 'a b'/,
    );
    expect(() => developerTermsFromEnv({ ANNA_SELF_SERVE_DEVELOPER: "maybe" }, dir)).toThrow(
      /use 1 or 0/,
    );
  });
});
