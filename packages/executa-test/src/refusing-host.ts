// A host with no services: every reverse request is refused with the error the real host sends
// when no router is attached (a family's "not negotiated" / "not granted" code, else -32601).
// Contract runs use it so a tool that calls sampling or storage gets an answer instead of hanging.

import { refuseReverseRequest } from "@anna-ai/executa-host";
import type { ReverseHandler } from "./plugin-client.js";

export function refusingHost(pluginLabel = "the plugin under test"): ReverseHandler {
  return (method) => {
    const refusal = refuseReverseRequest(method, pluginLabel);
    return {
      error: {
        code: refusal.code,
        message: refusal.message,
        ...(refusal.data === undefined ? {} : { data: refusal.data }),
      },
    };
  };
}
