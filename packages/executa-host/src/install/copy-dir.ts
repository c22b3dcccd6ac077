// A `local` install from a folder (Rediscover Local): the folder is copied into staging with the
// same rules an archive gets, so a link out of the folder or a FIFO never lands in an install.
import { chmod, copyFile, lstat, mkdir, readdir, readlink, symlink } from "node:fs/promises";
import * as path from "node:path";
import { InstallError } from "./install-error.js";
import { checkLinkTarget, ExtractBudget, type ExtractLimits, fileMode } from "./safe-member.js";

/** Folders never copied: VCS data and the CLI's identity cache are not part of an install. */
const SKIPPED = new Set([".git", ".anna", "node_modules/.cache"]);

export async function copyDir(
  source: string,
  root: string,
  limits: ExtractLimits,
  label: string,
): Promise<void> {
  const budget = new ExtractBudget(limits, label);
  const walk = async (rel: string): Promise<void> => {
    const names = (await readdir(path.join(source, rel))).sort();
    for (const name of names) {
      const member = rel === "" ? name : `${rel}/${name}`;
      if (SKIPPED.has(member)) continue;
      budget.entry();
      const from = path.join(source, member);
      const to = path.join(root, member);
      const st = await lstat(from);
      if (st.isDirectory()) {
        await mkdir(to, { mode: 0o755 });
        await walk(member);
      } else if (st.isFile()) {
        budget.add(st.size);
        await copyFile(from, to);
        await chmod(to, fileMode(st.mode & 0o7777));
      } else if (st.isSymbolicLink()) {
        const target = await readlink(from);
        checkLinkTarget(root, label, member, to, target);
        await symlink(target, to);
      } else {
        throw new InstallError(
          "UNSAFE_ARCHIVE",
          `${label}: ${member} is a device, FIFO or socket; a local executa folder holds files, folders and links only`,
        );
      }
    }
  };
  await walk("");
}
