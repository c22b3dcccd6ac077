// "Off" implementations: every call fails with the family's NOT_NEGOTIATED code where it has
// one, else NOT_GRANTED (the H13 rule), the way `--no-sampling` style switches behave.
import {
  AGENT_ERRORS,
  CREDENTIALS_ERRORS,
  EMBEDDINGS_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
  WEB_ERRORS,
} from "@anna-ai/app-schema/errors";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import type { HostServices } from "./host-services.js";
import { catalogError } from "./service-error.js";
import { SERVICE_WIRE_METHODS } from "./service-wire-methods.js";

/** The code each family refuses with. */
const REFUSAL: Readonly<Record<keyof HostServices, CatalogEntry>> = {
  sampling: SAMPLING_ERRORS.NOT_NEGOTIATED,
  storage: STORAGE_ERRORS.NOT_GRANTED,
  files: STORAGE_ERRORS.NOT_GRANTED,
  agent: AGENT_ERRORS.NOT_GRANTED,
  image: IMAGE_ERRORS.NOT_NEGOTIATED,
  upload: UPLOAD_ERRORS.NOT_NEGOTIATED,
  embeddings: EMBEDDINGS_ERRORS.NOT_NEGOTIATED,
  web: WEB_ERRORS.NOT_NEGOTIATED,
  credentials: CREDENTIALS_ERRORS.NOT_GRANTED,
};

/** Every family switched off; `reason` ends up in each error message. */
export function createDisabledServices(reason = "disabled on this host"): HostServices {
  const out: Record<string, Record<string, () => Promise<never>>> = {};
  for (const [service, entry] of Object.entries(REFUSAL)) {
    const impl: Record<string, () => Promise<never>> = {};
    const wire: Readonly<Record<string, string>> =
      SERVICE_WIRE_METHODS[service as keyof HostServices];
    for (const [method, wireMethod] of Object.entries(wire)) {
      impl[method] = () =>
        Promise.reject(catalogError(entry, `${wireMethod} is ${reason}`, { reason: "DISABLED" }));
    }
    out[service] = impl;
  }
  return out as unknown as HostServices;
}
