// "Off" implementations: every call fails with the family's gate code (family-codes.ts, H13),
// the way `--no-sampling` style switches behave.
import { FAMILY_CODES } from "./family-codes.js";
import type { HostServices } from "./host-services.js";
import { catalogError } from "./service-error.js";
import { SERVICE_WIRE_METHODS } from "./service-wire-methods.js";

/** Every family switched off; `reason` ends up in each error message. */
export function createDisabledServices(reason = "disabled on this host"): HostServices {
  const out: Record<string, Record<string, () => Promise<never>>> = {};
  for (const service of Object.keys(SERVICE_WIRE_METHODS) as (keyof HostServices)[]) {
    const entry = FAMILY_CODES[service].gate;
    const impl: Record<string, () => Promise<never>> = {};
    const wire: Readonly<Record<string, string>> = SERVICE_WIRE_METHODS[service];
    for (const [method, wireMethod] of Object.entries(wire)) {
      impl[method] = () =>
        Promise.reject(catalogError(entry, `${wireMethod} is ${reason}`, { reason: "DISABLED" }));
    }
    out[service] = impl;
  }
  return out as unknown as HostServices;
}
