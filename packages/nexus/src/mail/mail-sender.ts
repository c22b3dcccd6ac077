// How Nexus sends mail (verification links). Pluggable: createApp takes any MailSender. Two ship:
// the console sender, the default, prints each message to the operator's terminal (a local or
// dev server has no mail relay, and the link must reach someone); the file outbox writes one
// JSON file per message, for tests and for a relay that picks them up. Neither goes through the
// JSON logger: a log pipeline must never carry a working link, so only the console sees it.
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailSender {
  /** Where mail goes, safe to log (`console`, `outbox:/var/mail/anna`). */
  readonly description: string;
  send(message: MailMessage): Promise<void>;
}

/** Writes each message, framed so it stands out between JSON log lines, with `write`. */
export function consoleMailSender(write: (text: string) => void): MailSender {
  return {
    description: "console",
    async send(m) {
      write(`\n----- mail to ${m.to}: ${m.subject} -----\n${m.text}\n----- end of mail -----\n`);
    },
  };
}

/**
 * One `<epoch ms>-<random>.json` file per message in `dir` (mode 600, written under a temporary
 * name and renamed, so a reader never sees half a file).
 */
export function fileOutboxMailSender(dir: string, clock: { now(): number } = Date): MailSender {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return {
    description: `outbox:${dir}`,
    async send(m) {
      const name = `${clock.now()}-${randomBytes(6).toString("hex")}.json`;
      const tmp = join(dir, `.${name}.tmp`);
      writeFileSync(tmp, JSON.stringify(m) + "\n", { mode: 0o600 });
      renameSync(tmp, join(dir, name));
    },
  };
}
