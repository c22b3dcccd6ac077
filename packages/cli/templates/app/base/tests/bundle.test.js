// The bundle's logic under plain vitest: `npm install && npm test`.
import { describe, expect, it } from "vitest";
import {
  greetingFrom,
  HANDLE,
  nameToGreet,
  toolIdFor,
  visitsFrom,
  visitsLabel,
} from "../bundle/logic.js";

describe("toolIdFor", () => {
  it("uses the id anna-tool-ids.js published for the handle", () => {
    expect(toolIdFor({ [HANDLE]: "tool-acme-{{handle}}-1a2b3c4d" }, HANDLE)).toBe(
      "tool-acme-{{handle}}-1a2b3c4d",
    );
  });

  it("falls back to the bundled ref when no id is published", () => {
    expect(toolIdFor(undefined, HANDLE)).toBe("bundled:{{handle}}");
    expect(toolIdFor({ other: "tool-x" }, HANDLE)).toBe("bundled:{{handle}}");
  });
});

describe("greetingFrom", () => {
  it("reads the plugin's unwrapped data and the wrapped shapes", () => {
    expect(greetingFrom({ message: "Hello, Ada!" })).toBe("Hello, Ada!");
    expect(greetingFrom({ result: { message: "Hi" } })).toBe("Hi");
    expect(greetingFrom({ success: true, data: { message: "Howdy" } })).toBe("Howdy");
  });

  it("fails loudly on an answer without a message", () => {
    expect(() => greetingFrom({ result: {} })).toThrow(/without a message/);
  });
});

describe("visits", () => {
  it("counts from 0 when nothing valid is stored", () => {
    expect(visitsFrom({ value: 4 })).toBe(4);
    expect(visitsFrom({ value: null, exists: false })).toBe(0);
    expect(visitsFrom({ value: "7" })).toBe(0);
    expect(visitsFrom(undefined)).toBe(0);
  });

  it("welcomes the first visit and numbers the others", () => {
    expect(visitsLabel(1)).toBe("First visit — welcome!");
    expect(visitsLabel(3)).toBe("Visit number 3.");
  });
});

describe("nameToGreet", () => {
  it("trims the name and greets 'there' when it is empty", () => {
    expect(nameToGreet("  Ada ")).toBe("Ada");
    expect(nameToGreet("   ")).toBe("there");
  });
});

// The place for tests of the Host API calls (greet, countVisit): `mountBundle` from
// "@anna-ai/cli/test" (add @anna-ai/cli to devDependencies) hands them a runtime gated by
// manifest.json's `ui.host_api`, with `storage` in memory and `tools.invoke` answered by your
// mock (it runs no executa). docs/app-dev.md of the platform repository shows one:
//   const h = await mountBundle({ manifest: "./manifest.json", mocks: { "tools.invoke": … } });
//   expect(await countVisit(h.runtime)).toBe(1);
describe("the bundle through mountBundle", () => {
  it.todo("greets through tools.invoke under the required:bundled:{{handle}} grant");
  it.todo("counts visits in storage across mounts");
});
