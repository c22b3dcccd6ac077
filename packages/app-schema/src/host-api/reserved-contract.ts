// The Reference's reserved stubs (R160: artifact.*, fs.*, prefs.get): registered, always
// `not_implemented`, after auth, the ACL and the namespace gate.
import { z } from "zod";
import { hostMethod, NoArgsSchema } from "./method-contract.js";

const reserved = () => hostMethod(NoArgsSchema, () => z.never(), ["not_implemented"]);

export const RESERVED_CONTRACT = {
  "artifact.create": reserved(),
  "artifact.update": reserved(),
  "artifact.delete": reserved(),
  "fs.read": reserved(),
  "fs.write": reserved(),
  "prefs.get": reserved(),
} as const;
