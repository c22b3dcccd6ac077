// A handler bound to its method's contract: the dispatcher checks the arguments with the
// contract's schema (`@anna-ai/app-schema/host-api`), so the handler declares none of its own.
import {
  HOST_API_CONTRACT,
  type HostApiMethodKey,
  type HostApiParsedArgs,
} from "@anna-ai/app-schema/host-api";
import { method, type CallContext, type MethodHandler } from "../dispatcher/types.js";

export function contractMethod<K extends HostApiMethodKey>(
  key: K,
  handle: (args: HostApiParsedArgs<K>, ctx: CallContext) => Promise<unknown>,
): MethodHandler {
  return method(
    HOST_API_CONTRACT[key].args,
    handle as (args: unknown, ctx: CallContext) => Promise<unknown>,
  );
}
