// Where traffic travels on NATS: a user's window events on one subject per user under a prefix,
// and the invokes a node runs for the others on one subject per node. An id becomes one subject
// token in base64url (letters, digits, `-`, `_`): ids may hold `.`, `*`, `>` or spaces, which
// would split the subject, act as wildcards or be refused by the server.
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
  return `${prefix}.u${subjectToken(userId)}`;
}

/** Where other nodes send a node the invokes of the plugins it owns (D-nexus-168); same token rule. */
export function nodeInvokeSubject(prefix: string, nodeId: string): string {
  return `${prefix}.invoke.n${subjectToken(nodeId)}`;
}

function subjectToken(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}
