/**
 * Problems in a manifest that real plugins ship with: the host reports them and carries on.
 * `path` points into the describe result (`["tools", 0, "parameters", 2]`).
 */
export type ManifestWarningCode =
  | "INPUT_SCHEMA_IGNORED"
  | "ARRAY_WITHOUT_ITEMS"
  | "UNKNOWN_PARAMETER_TYPE"
  | "DUPLICATE_PARAMETER"
  | "DUPLICATE_TOOL"
  | "INVALID_TIMEOUT"
  | "NO_TOOLS"
  | "UNKNOWN_HOST_CAPABILITY"
  | "STORAGE_CAPABILITY_STRING";

export interface ManifestWarning {
  code: ManifestWarningCode;
  message: string;
  path: (string | number)[];
}
