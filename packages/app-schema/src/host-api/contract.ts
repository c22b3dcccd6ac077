// The Host API contract, keyed by `ns.method`: every method the dispatcher (app-core) serves, the
// browser SDK (app-runtime) exposes and `mountBundle` (the CLI's test kit) answers. The method
// *names* stay in the zod-free `HOST_API_METHODS` (app/host-api-methods.ts), which the SDK's
// browser bundle builds its proxies from; the checks below make the two lists the same one.
import type { z } from "zod";
import type { HostApiMethod, HostApiNamespace } from "../app/host-api-methods.js";
import { APPS_CONTRACT } from "./apps-contract.js";
import { CHAT_CONTRACT } from "./chat-contract.js";
import { CREDENTIALS_CONTRACT } from "./credentials-contract.js";
import type { HostApiErrorCode } from "./errors.js";
import { FILES_CONTRACT } from "./files-contract.js";
import { CALL_ERROR_CODES, type MethodContract } from "./method-contract.js";
import { AGENT_CONTRACT, IMAGE_CONTRACT, LLM_CONTRACT, UPLOAD_CONTRACT } from "./model-contract.js";
import { RESERVED_CONTRACT } from "./reserved-contract.js";
import { STORAGE_CONTRACT } from "./storage-contract.js";
import { TOOLS_CONTRACT } from "./tools-contract.js";
import { WEB_CONTRACT } from "./web-contract.js";
import { WINDOW_CONTRACT } from "./window-contract.js";

/** `window.hello`, `agent.session.create`, …: every key of the method table. */
export type HostApiMethodKey = {
  [N in HostApiNamespace]: `${N}.${HostApiMethod<N>}`;
}[HostApiNamespace];

export const HOST_API_CONTRACT = Object.freeze({
  ...WINDOW_CONTRACT,
  ...TOOLS_CONTRACT,
  ...CHAT_CONTRACT,
  ...STORAGE_CONTRACT,
  ...FILES_CONTRACT,
  ...LLM_CONTRACT,
  ...AGENT_CONTRACT,
  ...IMAGE_CONTRACT,
  ...UPLOAD_CONTRACT,
  ...WEB_CONTRACT,
  ...CREDENTIALS_CONTRACT,
  ...APPS_CONTRACT,
  ...RESERVED_CONTRACT,
});

export type HostApiContract = typeof HOST_API_CONTRACT;

// Compile-time: the contract has exactly the table's methods (`tsc -b` fails on a missing or an
// extra key), and every entry is a MethodContract.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type MustBeTrue<T extends true> = T;
export type ContractCoversMethodTable = MustBeTrue<
  Exactly<keyof HostApiContract, HostApiMethodKey>
>;
HOST_API_CONTRACT satisfies Readonly<Record<HostApiMethodKey, MethodContract>>;

/** What a caller passes to `ns.method` (defaults not applied yet). */
export type HostApiArgs<K extends HostApiMethodKey> = z.input<HostApiContract[K]["args"]>;
/** What a handler receives after the argument check. */
export type HostApiParsedArgs<K extends HostApiMethodKey> = z.output<HostApiContract[K]["args"]>;
/** What `ns.method` answers with. */
export type HostApiResult<K extends HostApiMethodKey> = z.output<HostApiContract[K]["result"]>;

export function isHostApiMethodKey(key: string): key is HostApiMethodKey {
  return Object.hasOwn(HOST_API_CONTRACT, key);
}

/** Every code `key` may answer with: the ones any call may, then its own. */
export function hostApiErrorsOf(key: HostApiMethodKey): readonly HostApiErrorCode[] {
  return [...new Set<HostApiErrorCode>([...CALL_ERROR_CODES, ...HOST_API_CONTRACT[key].errors])];
}
