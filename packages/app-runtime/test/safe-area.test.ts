// Safe areas: the host's arithmetic (how much of the page's unsafe edges lies over an iframe) and
// the SDK writing `--anna-safe-area-*` on the bundle's root from the first frame, then on every
// `safe_area` the host posts.
import { describe, expect, it } from "vitest";
import { connect, insetsOver, NO_INSETS, readInsets, type StyledElement } from "../src/index.js";
import { FakeHost } from "./helpers/fake-host.js";

const PHONE = { width: 390, height: 844 };
const NOTCH = { top: 47, right: 0, bottom: 34, left: 0 };

function fakeRoot(): StyledElement & { vars: Map<string, string> } {
  const vars = new Map<string, string>();
  return { vars, style: { setProperty: (name, value) => void vars.set(name, value) } };
}

describe("insetsOver", () => {
  it("gives a full-screen sheet the whole notch and home indicator", () => {
    expect(insetsOver({ top: 0, left: 0, ...PHONE }, PHONE, NOTCH)).toEqual(NOTCH);
  });

  it("gives 0 at the top to an iframe whose window bar already sits below the status bar", () => {
    const belowBar = { top: 47 + 40, left: 0, width: 390, height: 844 - 87 };
    expect(insetsOver(belowBar, PHONE, NOTCH)).toEqual({ top: 0, right: 0, bottom: 34, left: 0 });
  });

  it("gives the part of an edge that overlaps, and 0 to a window clear of the edges", () => {
    expect(insetsOver({ top: 20, left: 0, width: 390, height: 400 }, PHONE, NOTCH).top).toBe(27);
    expect(insetsOver({ top: 100, left: 40, width: 200, height: 200 }, PHONE, NOTCH)).toEqual(
      NO_INSETS,
    );
  });

  it("handles a landscape phone's side insets and never exceeds the frame", () => {
    const landscape = { width: 844, height: 390 };
    const sides = { top: 0, right: 47, bottom: 21, left: 47 };
    expect(insetsOver({ top: 0, left: 0, ...landscape }, landscape, sides)).toEqual(sides);
    expect(insetsOver({ top: 0, left: 0, width: 10, height: 10 }, landscape, sides).left).toBe(10);
    expect(insetsOver({ top: 0, left: 0, width: 0, height: 0 }, landscape, sides)).toEqual(
      NO_INSETS,
    );
  });
});

describe("readInsets", () => {
  it("keeps finite sides in [0, 1024], rounded, and makes anything else 0", () => {
    expect(readInsets({ top: 47.4, right: -3, bottom: 1e9, left: "9" })).toEqual({
      top: 47,
      right: 0,
      bottom: 1024,
      left: 0,
    });
    expect(readInsets(null)).toEqual(NO_INSETS);
    expect(readInsets({ top: Number.NaN })).toEqual(NO_INSETS);
  });
});

describe("the SDK's --anna-safe-area-* variables", () => {
  it("are 0px from connect on, so a bundle can always use them (the desktop case)", async () => {
    const root = fakeRoot();
    const host = new FakeHost();
    const anna = await connect(host.connectOptions({ root }));
    try {
      expect(Object.fromEntries(root.vars)).toEqual({
        "--anna-safe-area-top": "0px",
        "--anna-safe-area-right": "0px",
        "--anna-safe-area-bottom": "0px",
        "--anna-safe-area-left": "0px",
      });
      expect(anna.safeArea).toEqual(NO_INSETS);
    } finally {
      anna.close();
    }
  });

  it("follow the host's safe_area events, which on('safe_area') also hears", async () => {
    const root = fakeRoot();
    const host = new FakeHost();
    const anna = await connect(host.connectOptions({ root }));
    const seen: unknown[] = [];
    anna.on("safe_area", (payload) => seen.push(payload));
    try {
      host.emitNamed("safe_area", NOTCH);
      await host.settle();
      expect(root.vars.get("--anna-safe-area-top")).toBe("47px");
      expect(root.vars.get("--anna-safe-area-bottom")).toBe("34px");
      expect(anna.safeArea).toEqual(NOTCH);
      expect(seen).toEqual([NOTCH]);
      // A hostile or broken payload cannot push the content off screen.
      host.emitNamed("safe_area", { top: 5e6, bottom: "x" });
      await host.settle();
      expect(anna.safeArea).toEqual({ top: 1024, right: 0, bottom: 0, left: 0 });
    } finally {
      anna.close();
    }
  });

  it("writes nothing when told there is no root", async () => {
    const host = new FakeHost();
    const anna = await connect(host.connectOptions({ root: null }));
    host.emitNamed("safe_area", NOTCH);
    await host.settle();
    expect(anna.safeArea).toEqual(NOTCH);
    anna.close();
  });
});
