import { UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import {
  checkKeyOwner,
  keyFilename,
  safeFilename,
  uploadKey,
} from "../../../src/services/offline/upload-keys.js";
import { expectCatalogError } from "./helpers.js";

const owner = { userId: "user/1", toolId: "tool a", invokeId: "inv-1" };

describe("upload keys", () => {
  it("keeps safe file names short, ASCII and never hidden", () => {
    expect(safeFilename("report.pdf")).toBe("report.pdf");
    expect(safeFilename("../../etc/passwd")).toBe("passwd");
    expect(safeFilename("C:\\Users\\me\\résumé final.docx")).toBe("r_sum_final.docx");
    expect(safeFilename(".env")).toBe("env");
    expect(safeFilename("...")).toBe("file");
    expect(safeFilename("")).toBe("file");
    expect(safeFilename(`${"a".repeat(300)}.txt`)).toHaveLength(100);
    expect(safeFilename(`${"a".repeat(300)}.txt`).endsWith(".txt")).toBe(true);
  });

  it("lays keys out per user, tool, invoke and purpose, encoding each segment", () => {
    const key = uploadKey(owner, "dev", "image_input", 1_700_000_000_000, "a b.png", [1]);
    expect(key).toMatch(
      /^exec-uploads\/dev\/user%2F1\/tool%20a\/inv-1\/image_input\/1700000000000_[0-9a-f]{12}_a_b\.png$/,
    );
    expect(uploadKey(owner, "dev", "image_input", 1_700_000_000_000, "a b.png", [1])).toBe(key);
    expect(uploadKey(owner, "dev", "image_input", 1_700_000_000_000, "a b.png", [2])).not.toBe(key);
    expect(keyFilename(key)).toBe("a_b.png");
  });

  it("accepts only the owner's keys in the key layout", async () => {
    const key = uploadKey(owner, "dev", "user_artifact", 1, "x.txt", [1]);
    expect(() => checkKeyOwner(key, owner, "dev", "m")).not.toThrow();
    const refusals = [
      () => checkKeyOwner(key, { ...owner, invokeId: "inv-2" }, "dev", "m"),
      () => checkKeyOwner(key, { ...owner, userId: "user" }, "dev", "m"),
      () => checkKeyOwner(key, owner, "prod", "m"),
      () => checkKeyOwner(`${key}/extra`, owner, "dev", "m"),
      () => checkKeyOwner(key.replace("exec-uploads", "other"), owner, "dev", "m"),
    ];
    for (const refuse of refusals) {
      await expectCatalogError(
        Promise.resolve().then(refuse),
        UPLOAD_ERRORS.INVALID_REQUEST,
        /not issued/,
      );
    }
  });
});
