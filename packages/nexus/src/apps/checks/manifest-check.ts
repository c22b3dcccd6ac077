// The `manifest` pre-review check: the candidate version's manifest through the same validator
// `anna-app validate` runs, every issue (warnings too) reported to the reviewer with its pointer,
// plus tool ids the catalogue cannot serve (not in the Hub, or private / archived: inventory A14).
import { declaredToolIds, type AppManifest } from "@anna-ai/app-schema";
import { checkManifest } from "../manifest-gate.js";
import type { PreReviewCheck, ReviewFinding } from "../pre-review.js";

export const manifestCheck: PreReviewCheck = {
  id: "manifest",
  async run({ db, version }) {
    const report = checkManifest(JSON.parse(version.manifest));
    const findings: ReviewFinding[] = report.issues.map((i) => ({
      check: "manifest",
      severity: i.severity,
      message: `${i.code}: ${i.message}`,
      path: i.pointer === "" ? "manifest.json" : `manifest.json#${i.pointer}`,
    }));
    if (!report.manifest) return findings;
    const ids = [...declaredToolIds(report.manifest as AppManifest, "any")];
    if (ids.length === 0) return findings;
    const rows = await db
      .selectFrom("executas")
      .select(["tool_id", "visibility", "archived_at"])
      .where("tool_id", "in", ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.tool_id, r]));
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) {
        findings.push({
          check: "manifest",
          severity: "error",
          message: `tool_id ${id} is not in this server's Executa Hub; users could not install it`,
          path: "manifest.json",
        });
      } else if (row.archived_at !== null || row.visibility === "private") {
        findings.push({
          check: "manifest",
          severity: "error",
          message: `tool_id ${id} is ${row.archived_at !== null ? "archived" : "private"}; an app may use only app_bundled or public executas (\`anna-app executa publish\` makes it app_bundled)`,
          path: "manifest.json",
        });
      }
    }
    return findings;
  },
};
