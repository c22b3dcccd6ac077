// One refusal table: the "off" services and the refusal before a router is attached answer each
// family with the code the router's gate uses, for every wire method the services serve.
import { RpcError } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import { refuseReverseRequest } from "../../src/process/default-reverse.js";
import { createDisabledServices } from "../../src/services/disabled-services.js";
import { FAMILY_CODES, familyOfMethod } from "../../src/services/family-codes.js";
import type { HostServices } from "../../src/services/host-services.js";
import { SERVICE_WIRE_METHODS } from "../../src/services/service-wire-methods.js";

const WIRE = Object.entries(SERVICE_WIRE_METHODS).flatMap(([service, methods]) =>
  Object.entries(methods as Record<string, string>).map(
    ([method, wire]) => [service as keyof HostServices, method, wire] as const,
  ),
);

describe("family refusal codes", () => {
  it.each(WIRE)(
    "%s.%s (%s) is refused with the router's gate code",
    async (service, method, wire) => {
      const gate = FAMILY_CODES[service].gate;
      expect(familyOfMethod(wire)).toBe(service);

      const before = refuseReverseRequest(wire, 'plugin "p"');
      expect([before.code, before.errorCode]).toEqual([gate.code, gate.errorCode]);

      const disabled = createDisabledServices() as unknown as Record<
        string,
        Record<string, () => Promise<unknown>>
      >;
      const off = await (disabled[service]?.[method] as () => Promise<unknown>)().catch(
        (e: unknown) => e,
      );
      expect(off).toBeInstanceOf(RpcError);
      expect([(off as RpcError).code, (off as RpcError).errorCode]).toEqual([
        gate.code,
        gate.errorCode,
      ]);
    },
  );

  it("answers a method of no family with the catalog's METHOD_NOT_FOUND", () => {
    const error = refuseReverseRequest("nope/thing", 'plugin "p"');
    expect([error.code, error.errorCode]).toEqual([-32601, "METHOD_NOT_FOUND"]);
  });
});
