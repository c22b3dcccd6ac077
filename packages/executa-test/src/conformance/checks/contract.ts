// The contract checks generated from each tool's declared parameters (contract-cases.ts): valid
// arguments must be taken, a missing required argument or one of the wrong type refused with an
// answer — never a crash, a hang or `success: true`.

import { EnvelopeAssertionError } from "../../assertions.js";
import { assertContractOutcome, type ContractCase } from "../../contract-cases.js";
import { CONTRACT_CHECK_PREFIX, CONTRACT_SPEC, type CheckDefinition } from "../check-catalog.js";
import type { KitSession } from "../kit-session.js";
import { fail, pass, type Verdict } from "../verdict.js";

/** `contract.greet.valid.required`, `contract.greet.missing.name`, `contract.greet.wrong-type.n`. */
export function contractCheckId(testCase: ContractCase): string {
  const base = `${CONTRACT_CHECK_PREFIX}.${testCase.tool}`;
  switch (testCase.kind) {
    case "valid":
      return `${base}.valid.${testCase.title.endsWith("every parameter") ? "all" : "required"}`;
    case "missing_required":
      return `${base}.missing.${testCase.parameter ?? ""}`;
    case "wrong_type":
      return `${base}.wrong-type.${testCase.parameter ?? ""}`;
  }
}

export function contractCheck(testCase: ContractCase): CheckDefinition {
  return { id: contractCheckId(testCase), title: testCase.title, spec: CONTRACT_SPEC };
}

export const CONTRACT_EXPECTED = {
  accepted:
    "take arguments that follow the declared parameters: answer {success, data?, error?} (not -32602 or -32601)",
  rejected:
    "refuse the arguments: answer error -32602 naming the parameter, or {success: false, error}",
} as const;

export async function checkContractCase(
  session: KitSession,
  testCase: ContractCase,
): Promise<Verdict> {
  const frame = await session.invoke(testCase.tool, testCase.arguments);
  try {
    assertContractOutcome(testCase, frame);
  } catch (error) {
    if (!(error instanceof EnvelopeAssertionError)) throw error;
    return fail(
      error.message.replace(/\n\s+frame: /, "; frame: "),
      CONTRACT_EXPECTED[testCase.expect],
    );
  }
  return pass();
}
