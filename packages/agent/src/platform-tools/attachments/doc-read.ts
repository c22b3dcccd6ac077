// doc_read (R96): a text, Markdown or HTML attachment as blocks with stable locators.
// `mode: "outline"` lists the headings (and the block count) so a long document can be read in
// windows; `content` returns blocks from `start` until the character budget, and a cut is always
// explicit: `truncated.next_call` is the exact call that continues. PDF, DOCX and PPTX need
// parsers the repo does not ship yet; they get a clear "not supported yet" error.
import { extractHtml } from "@anna-ai/executa-host";
import { z } from "zod";
import type { AgentTool } from "../../turns/types.js";
import { platformTool, PlatformToolError } from "../platform-tool.js";
import {
  attachmentKind,
  attachmentText,
  loadAttachment,
  notSupportedYet,
  type AttachmentLookup,
} from "./attachment.js";
import { type DocBlock, markdownBlocks } from "./doc-blocks.js";

export const DOC_READ_DEFAULT_CHARS = 20_000;
export const DOC_READ_MAX_CHARS = 60_000;
export const DOC_OUTLINE_MAX_HEADINGS = 500;
export const ATTACHMENTS_FAMILY = "attachments";
/** Parsing is in memory and bounded; this only guards a pathological file. */
export const ATTACHMENT_TOOL_TIMEOUT_MS = 30_000;

export interface AttachmentToolsOptions {
  attachment: AttachmentLookup;
}

function documentBlocks(kind: string, text: string): DocBlock[] {
  if (kind === "html") {
    // The base only resolves relative links in the Markdown; an attachment has no origin.
    return markdownBlocks(extractHtml(text, "markdown", "https://attachment.invalid/").content);
  }
  return markdownBlocks(text);
}

export function docReadTool(options: AttachmentToolsOptions): AgentTool {
  return platformTool({
    name: "doc_read",
    family: ATTACHMENTS_FAMILY,
    timeoutMs: ATTACHMENT_TOOL_TIMEOUT_MS,
    description:
      "Read a document attached to this conversation (text, Markdown, HTML) as blocks with stable " +
      "locators (para:N, table:M). Use mode 'outline' first for long documents, then read from a locator with 'start'. " +
      "A cut is explicit: call truncated.next_call to continue.",
    input: z.object({
      attachment_id: z.string().min(1),
      mode: z.enum(["outline", "content"]).default("content"),
      start: z
        .string()
        .regex(/^(para|table):[1-9]\d*$/, "a locator like para:12 or table:2")
        .optional(),
      max_chars: z.int().min(500).max(DOC_READ_MAX_CHARS).default(DOC_READ_DEFAULT_CHARS),
    }),
    async run(input, ctx) {
      const attachment = await loadAttachment(options.attachment, input.attachment_id, ctx);
      const kind = attachmentKind(attachment);
      if (kind === "csv" || kind === "tsv" || kind === "xlsx" || kind === "xls") {
        throw new PlatformToolError(
          "UNSUPPORTED_MEDIA_TYPE",
          `${attachment.name} is a spreadsheet; read it with sheet_read`,
        );
      }
      if (kind !== "text" && kind !== "markdown" && kind !== "html") {
        notSupportedYet(attachment, kind, "doc_read", "text, Markdown and HTML documents");
      }
      const blocks = documentBlocks(kind, attachmentText(attachment));
      const about = {
        id: input.attachment_id,
        name: attachment.name,
        kind,
        total_blocks: blocks.length,
      };
      if (input.mode === "outline") {
        const headings = blocks.filter((b) => b.type === "heading");
        return {
          attachment: about,
          outline: headings.slice(0, DOC_OUTLINE_MAX_HEADINGS).map((b) => ({
            locator: b.locator,
            level: b.level,
            text: b.text,
          })),
          total_chars: blocks.reduce((n, b) => n + b.text.length, 0),
          truncated:
            headings.length > DOC_OUTLINE_MAX_HEADINGS
              ? { reason: `only the first ${DOC_OUTLINE_MAX_HEADINGS} headings are listed` }
              : false,
        };
      }
      const from =
        input.start === undefined ? 0 : blocks.findIndex((b) => b.locator === input.start);
      if (from === -1) {
        throw new PlatformToolError(
          "INVALID_ARGUMENT",
          `${input.start} is not a block of ${attachment.name}; it has ${blocks.length} blocks (see mode 'outline')`,
        );
      }
      const out: (DocBlock & { text_truncated?: true })[] = [];
      let chars = 0;
      let next = from;
      for (; next < blocks.length; next++) {
        const block = blocks[next] as DocBlock;
        if (chars + block.text.length > input.max_chars) {
          // A block larger than the whole budget comes back cut (and says so), so reading advances.
          if (out.length === 0) {
            out.push({
              ...block,
              text: block.text.slice(0, input.max_chars),
              text_truncated: true,
            });
            next++;
          }
          break;
        }
        out.push(block);
        chars += block.text.length;
      }
      const following = blocks[next];
      return {
        attachment: about,
        blocks: out,
        truncated:
          following === undefined
            ? false
            : {
                reason: `stopped before ${following.locator} at the ${input.max_chars}-character budget`,
                next_call: {
                  tool: "doc_read",
                  arguments: {
                    attachment_id: input.attachment_id,
                    start: following.locator,
                    max_chars: input.max_chars,
                  },
                },
              },
      };
    },
  });
}
