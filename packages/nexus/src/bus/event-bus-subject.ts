// Where a user's window events travel on NATS: one subject per user under a prefix. The user id
// becomes one subject token in base64url (letters, digits, `-`, `_`): ids may hold `.`, `*`, `>`
// or spaces, which would split the subject, act as wildcards or be refused by the server.
import { EventBusConfigError } from "./event-bus-url.js";

export const DEFAULT_EVENT_SUBJECT_PREFIX = "anna.events";

/** Dot-separated tokens of subject-safe characters: no wildcard, no space, no empty token. */
const PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** Throws when `prefix` cannot start a subject; the message names the value and the rule. */
export function checkSubjectPrefix(prefix: string): string {
  if (!PREFIX.test(prefix)) {
    throw new EventBusConfigError(
      `event bus subject prefix '${prefix}' is not usable: expected dot-separated tokens of letters, digits, '-' and '_' (e.g. ${DEFAULT_EVENT_SUBJECT_PREFIX})`,
    );
  }
  return prefix;
}

/** `u` first so that the empty id still makes a token. */
export function userSubject(prefix: string, userId: string): string {
  return `${prefix}.u${Buffer.from(userId, "utf8").toString("base64url")}`;
}
