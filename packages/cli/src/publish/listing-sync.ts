// The store listing pushed from the project (real-world-cli.md "Changes in 0.1.47" §C): the
// keys are read from app.json first, then manifest.json; local screenshots are uploaded one by
// one (A26), then one PATCH (A4) carries the listing, then a local logo is uploaded (A25). The
// four URL fields are clearable: an explicit null or "" is sent as "", an absent key is left
// out. Limits are checked before any request; `apps sync-meta` fails on them (exit 4), push
// and publish only warn and skip the sync.
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  APP_DESCRIPTION_MAX_CHARS,
  APP_NAME_MAX_CHARS,
  APP_TAGLINE_MAX_CHARS,
  APP_URL_MAX_CHARS,
} from "@anna-ai/app-schema";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";
import { contentTypeOf } from "./app-bundle.js";
import { APPS } from "./app-resolve.js";
import type { JsonObject } from "./json-file.js";
import type { RequestPlan } from "./request-plan.js";

export const CATEGORY_MAX_CHARS = 60;
const URL_KEYS = ["cover_url", "homepage_url", "support_url", "privacy_url"] as const;
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
};

export interface ListingSource {
  dir: string;
  appJson: JsonObject | undefined;
  manifest: JsonObject;
  slug: string;
  /** `--logo <path>` (sync-meta): overrides `logo_file`. */
  logoFile?: string | undefined;
}

export interface ListingPlan {
  patch: JsonObject;
  /** Local screenshot files, in declared order, with their slot in `patch.screenshots`. */
  screenshotFiles: { slot: number; file: string }[];
  logoFile: string | undefined;
}

const invalid = (why: string) => new ExitError(EXIT_INVALID_PROJECT, why);
const isRemote = (s: string) => /^(https?:|data:)/i.test(s);

/** What would be sent; exit 4 on a limit or a missing local file. */
export async function planListing(src: ListingSource): Promise<ListingPlan> {
  const has = (k: string) => (src.appJson !== undefined && k in src.appJson) || k in src.manifest;
  const get = (k: string): unknown =>
    src.appJson !== undefined && k in src.appJson ? src.appJson[k] : src.manifest[k];
  const text = (k: string, max: number): string | undefined => {
    const v = get(k);
    if (typeof v !== "string" || v === "") return undefined;
    if (v.length > max) throw invalid(`listing ${k} is ${v.length} characters; at most ${max}`);
    return v;
  };
  const patch: JsonObject = { name: text("name", APP_NAME_MAX_CHARS) ?? src.slug };
  const category = text("category", CATEGORY_MAX_CHARS);
  const tagline = text("tagline", APP_TAGLINE_MAX_CHARS);
  const description = text("description", APP_DESCRIPTION_MAX_CHARS);
  if (category !== undefined) patch.category = category;
  if (tagline !== undefined) patch.tagline = tagline;
  if (description !== undefined) patch.description = description;
  for (const k of URL_KEYS) {
    if (!has(k)) continue;
    const v = get(k);
    if (v === null || v === "") patch[k] = "";
    else if (typeof v === "string") patch[k] = text(k, APP_URL_MAX_CHARS);
  }
  const logoFile =
    src.logoFile ??
    (typeof get("logo_file") === "string" ? (get("logo_file") as string) : undefined);
  if (logoFile === undefined && typeof get("logo_url") === "string") {
    patch.logo_url = text("logo_url", APP_URL_MAX_CHARS);
  }
  const screenshotFiles: ListingPlan["screenshotFiles"] = [];
  const shots = get("screenshots");
  if (Array.isArray(shots)) {
    const kept = shots.filter((s): s is string => typeof s === "string");
    if (kept.length > 0) {
      patch.screenshots = kept.map((s, slot) => {
        if (isRemote(s)) return s;
        screenshotFiles.push({ slot, file: path.resolve(src.dir, s) });
        return s;
      });
    }
  }
  for (const f of [
    ...screenshotFiles.map((s) => s.file),
    ...(logoFile ? [path.resolve(src.dir, logoFile)] : []),
  ]) {
    try {
      await readFile(f);
    } catch {
      throw invalid(`listing image ${path.relative(src.dir, f)} does not exist in ${src.dir}`);
    }
  }
  return {
    patch,
    screenshotFiles,
    logoFile: logoFile === undefined ? undefined : path.resolve(src.dir, logoFile),
  };
}

/** A26 × N, A4, A25 — the order the published CLI sends them. */
export async function sendListing(
  plan: RequestPlan,
  appId: number | string,
  listing: ListingPlan,
): Promise<JsonObject> {
  const patch = { ...listing.patch };
  const shots = Array.isArray(patch.screenshots) ? [...(patch.screenshots as string[])] : [];
  for (const { slot, file } of listing.screenshotFiles) {
    const res = await upload(plan, `${APPS}/${appId}/screenshots`, file, "screenshot");
    if (res !== undefined) shots[slot] = String(res.screenshot_url);
  }
  if (shots.length > 0) patch.screenshots = shots;
  await plan.send(
    { method: "PATCH", path: `${APPS}/${appId}`, body: patch },
    "updating the store listing",
  );
  if (listing.logoFile !== undefined)
    await upload(plan, `${APPS}/${appId}/logo`, listing.logoFile, "logo");
  return patch;
}

async function upload(plan: RequestPlan, p: string, file: string, what: string) {
  const type = IMAGE_TYPES[path.extname(file).toLowerCase()] ?? contentTypeOf(file);
  plan.steps.push({ method: "POST", path: p, note: `multipart ${what} ${path.basename(file)}` });
  if (plan.dryRun) return undefined;
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await readFile(file))], { type }), "blob");
  const res = await plan.client.post<Record<string, unknown>>(p, {
    form,
    what: `uploading the ${what} ${path.basename(file)}`,
  });
  return res.body ?? {};
}
