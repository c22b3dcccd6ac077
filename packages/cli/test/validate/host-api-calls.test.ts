import { describe, expect, it } from "vitest";
import {
  canonicalMethod,
  findHostApiCalls,
  lineColumn,
} from "../../src/validate/host-api-calls.js";

const calls = (text: string): string[] =>
  findHostApiCalls(text).map((c) => `${c.namespace}.${c.method}`);

describe("findHostApiCalls", () => {
  it("finds calls on the SDK object whatever it is named", () => {
    expect(calls("anna.storage.get({key}); rt.tools.invoke(x); runtime.llm.complete({})")).toEqual([
      "storage.get",
      "tools.invoke",
      "llm.complete",
    ]);
  });

  it("finds calls written with optional chaining", () => {
    expect(
      calls("anna?.storage.get(k); rt.chat?.write_message?.(m); a?.image?.generate?.({})"),
    ).toEqual(["storage.get", "chat.write_message", "image.generate"]);
  });

  it("finds calls in minified code with one-letter receivers and no spaces", () => {
    const minified =
      'const e=await t();e.storage.set({key:"a",value:1}),e.files.upload_init(n);(0,r.upload.inline)(b)';
    expect(calls(minified)).toEqual(["storage.set", "files.upload_init"]);
  });

  it("finds calls on a destructured namespace", () => {
    expect(calls("const { storage } = anna;\nawait storage.delete({ key })")).toEqual([
      "storage.delete",
    ]);
  });

  it("finds the generic .call(ns, method) form", () => {
    expect(calls('await h.call("storage", "list", {}); rt.call(\'web\', "search", {q})')).toEqual([
      "storage.list",
      "web.search",
    ]);
  });

  it("maps camel-case spellings the dispatcher routes to their method", () => {
    expect(calls("anna.web.imageSearch({q})")).toEqual(["web.image_search"]);
  });

  it("maps the SDK's agent helpers to agent session methods", () => {
    expect(
      calls("anna.agent.session({kind:'auto'}); anna.agent.session.run(x); anna.agent.refresh(y)"),
    ).toEqual(["agent.session.create", "agent.session.run", "agent.session.refresh"]);
  });

  it("ignores look-alikes that are not Host API calls", () => {
    const text = [
      "localStorage.getItem('a')",
      "sessionStorage.get('a')",
      "input.files.forEach(f => f)",
      "mystorage.get(1)",
      "anna.storage.get", // not called
      "anna.window.set_title('x')", // window.* is always granted
      "chrome.storage.local.get('k')",
    ].join(";\n");
    expect(calls(text)).toEqual([]);
  });

  it("keeps the first segment when a method is followed by .bind or .call", () => {
    expect(calls("const g = anna.storage.get.bind(anna.storage); g()")).toEqual(["storage.get"]);
  });

  it("reports each call's offset so it can be placed at a line and column", () => {
    const text = "// app\nconst rt = connect();\n  rt.storage.set(x)";
    const [call] = findHostApiCalls(text);
    expect(call).toBeDefined();
    expect(lineColumn(text, call!.offset)).toEqual({ line: 3, column: 6 });
  });
});

describe("canonicalMethod", () => {
  it("returns undefined for names outside the table", () => {
    expect(canonicalMethod("storage", "getItem")).toBeUndefined();
    expect(canonicalMethod("nope", "get")).toBeUndefined();
    expect(canonicalMethod("storage", "get")).toBe("get");
  });
});
