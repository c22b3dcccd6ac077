// A handler bound to its method's contract: the dispatcher checks the arguments with the
// contract's schema (`@anna-ai/app-schema/host-api`), so the handler declares none of its own.
import {
  HOST_API_CONTRACT,
  type HostApiMethodKey,
  type HostApiParsedArgs,
} from "@anna-ai/app-schema/host-api";
import type { CallContext, MethodHandler } from "../dispatcher/types.js";

export function contractMethod<K extends HostApiMethodKey>(
  key: K,
  handle: (args: HostApiParsedArgs<K>, ctx: CallContext) => Promise<unknown>,
): MethodHandler {
  return {
    // Read at the first call, not here: the contract builds a method's schema when first asked
    // (lazySchema), and a dispatcher that is built but not called should build none.
    get args() {
      return HOST_API_CONTRACT[key].args;
    },
    handle: handle as (args: unknown, ctx: CallContext) => Promise<unknown>,
  };
}
