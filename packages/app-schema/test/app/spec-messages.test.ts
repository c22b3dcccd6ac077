import { describe, expect, it } from "vitest";
import { formatSpecMessage, SPEC_MESSAGES } from "../../src/app/spec-messages.js";

describe("SPEC_MESSAGES (ruling A11)", () => {
  it("keeps the platform's wording verbatim, full-width parentheses included", () => {
    expect(SPEC_MESSAGES.publishNeedsApproval.text).toBe(
      "App 必须先通过审核（APPROVED）后才能发布版本",
    );
    expect(SPEC_MESSAGES.submitReviewNeedsVersion.text).toBe("提交审核前需至少创建一个版本");
    expect(SPEC_MESSAGES.uiViewsCount.text).toBe("ui.views 数量必须在 1..16 之间");
  });

  it("gives every message an English explanation and a source line", () => {
    for (const entry of Object.values(SPEC_MESSAGES)) {
      expect(entry.english).toMatch(/^[\x20-\x7E]+$/);
      expect(entry.source).toMatch(/^L\d+/);
    }
  });

  it("fills placeholders in both texts and leaves unknown ones alone", () => {
    expect(formatSpecMessage("viewDefaultSizeBelowMin", { name: "main" })).toEqual({
      text: "view 'main' default_size 小于 min_size",
      english: "View 'main': default_size is smaller than min_size.",
    });
    expect(formatSpecMessage("hostApiToolsUndeclared").text).toBe(
      "host_api.tools 引用未在 manifest 中声明的 tool_id: {ref}",
    );
  });
});
