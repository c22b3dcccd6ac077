// tar+gzip members into the staging folder, one at a time, through the checks of safe-member.ts.
// node-tar's parser reads the format (pax, GNU long names, gzip); the writing is ours, so every
// member is refused or written exactly as checked.
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { link, lstat, mkdir, symlink } from "node:fs/promises";
import * as path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
// The parser alone: `tar`'s main entry also loads its extractor and chownr, which we never use.
import { Parser } from "tar/parse";
import type { ReadEntry } from "tar/read-entry";
import { InstallError } from "./install-error.js";
import {
  checkFreshDestination,
  checkLinkTarget,
  ExtractBudget,
  type ExtractLimits,
  fileMode,
  safeMemberPath,
} from "./safe-member.js";

export async function extractTarGz(
  archive: string,
  root: string,
  limits: ExtractLimits,
  label: string,
): Promise<void> {
  const budget = new ExtractBudget(limits, label);
  let failure: Error | undefined;
  let chain: Promise<void> = Promise.resolve();
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      chain = chain.then(async () => {
        if (failure !== undefined) {
          entry.resume();
          return;
        }
        try {
          await writeEntry(entry, root, budget, label);
        } catch (err) {
          failure ??= err instanceof Error ? err : new Error(String(err));
          entry.resume();
        }
      });
    },
  });
  let parseError: unknown;
  parser.on("error", (err: unknown) => (parseError ??= err));
  const input = createReadStream(archive);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (failure !== undefined || parseError !== undefined) break;
      if (!parser.write(chunk)) await once(parser, "drain");
    }
    if (failure === undefined && parseError === undefined) {
      const ended = once(parser, "end");
      parser.end();
      await ended;
    }
  } catch (err) {
    // `once` rejects with the parser's error; a read error of the file lands here too.
    parseError ??= err;
  } finally {
    input.destroy();
  }
  await chain;
  if (failure !== undefined) throw failure;
  if (parseError !== undefined) {
    const detail = parseError instanceof Error ? parseError.message : String(parseError);
    throw new InstallError(
      "CORRUPT_ARCHIVE",
      `${label}: not a readable tar.gz (${detail}); rebuild it with \`tar czf\``,
      { cause: parseError },
    );
  }
}

async function writeEntry(
  entry: ReadEntry,
  root: string,
  budget: ExtractBudget,
  label: string,
): Promise<void> {
  budget.entry();
  const dest = safeMemberPath(root, label, entry.path);
  if (dest === undefined) {
    entry.resume();
    return;
  }
  switch (entry.type) {
    case "Directory":
      await checkFreshDestination(root, label, entry.path, dest, "dir");
      await mkdir(dest, { recursive: true, mode: 0o755 });
      entry.resume();
      return;
    case "File":
    case "OldFile":
    case "ContiguousFile": {
      budget.add(entry.size);
      await checkFreshDestination(root, label, entry.path, dest, "file");
      await mkdir(path.dirname(dest), { recursive: true, mode: 0o755 });
      let written = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          written += chunk.length;
          done(
            written > entry.size
              ? new InstallError(
                  "CORRUPT_ARCHIVE",
                  `${label}: ${entry.path} is longer than its header says`,
                )
              : null,
            chunk,
          );
        },
      });
      await pipeline(
        entry,
        count,
        createWriteStream(dest, { flags: "wx", mode: fileMode(entry.mode) }),
      );
      return;
    }
    case "SymbolicLink": {
      const target = entry.linkpath ?? "";
      checkLinkTarget(root, label, entry.path, dest, target);
      await checkFreshDestination(root, label, entry.path, dest, "file");
      await mkdir(path.dirname(dest), { recursive: true, mode: 0o755 });
      await symlink(target, dest);
      entry.resume();
      return;
    }
    case "Link": {
      // A hard link names another member; it must be a regular file already extracted here.
      const target = safeMemberPath(root, label, entry.linkpath ?? "");
      const st = target === undefined ? undefined : await lstat(target).catch(() => undefined);
      if (target === undefined || !st?.isFile()) {
        throw new InstallError(
          "UNSAFE_ARCHIVE",
          `${label}: member ${JSON.stringify(entry.path)} is a hard link to ${JSON.stringify(entry.linkpath)}, which is not a file earlier in the archive; nothing was installed`,
        );
      }
      await checkFreshDestination(root, label, entry.path, dest, "file");
      await mkdir(path.dirname(dest), { recursive: true, mode: 0o755 });
      await link(target, dest);
      entry.resume();
      return;
    }
    default:
      throw new InstallError(
        "UNSAFE_ARCHIVE",
        `${label}: member ${JSON.stringify(entry.path)} is a ${entry.type} entry; an executa archive holds files, folders and links only`,
      );
  }
}
