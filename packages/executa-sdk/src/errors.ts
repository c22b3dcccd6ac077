// Typed errors for reverse calls. Every failure of a host call (a wire error from the host, or a
// local timeout/abort/refusal) surfaces as one of these, so plugin code can switch on `code`
// (numeric, the wire code) or `errorCode` (the symbolic name, H12) without caring where it came from.

import type { ReverseFamily } from "@anna-ai/app-schema";

/**
 * The reverse-RPC families a plugin can call: app-schema's, so a new family reaches the SDK's
 * tables (`ERROR_CLASS`, the channel's) as a type error. `files` shares the storage codes.
 */
export type HostFamily = ReverseFamily;

export interface HostCallErrorInit {
  code: number;
  errorCode: string;
  method: string;
  data?: unknown;
  cause?: unknown;
}

/** Base of every reverse-call error. `data` is the wire `error.data` when the host sent one. */
export class HostCallError extends Error {
  readonly code: number;
  readonly errorCode: string;
  readonly method: string;
  readonly data: unknown;

  constructor(message: string, init: HostCallErrorInit) {
    super(message, { cause: init.cause });
    this.name = "HostCallError";
    this.code = init.code;
    this.errorCode = init.errorCode;
    this.method = init.method;
    this.data = init.data;
  }
}

/** `sampling/createMessage`. */
export class SamplingError extends HostCallError {
  constructor(message: string, init: HostCallErrorInit) {
    super(message, init);
    this.name = "SamplingError";
  }
}

/** `agent/*`. Extends SamplingError as in the Python/Node SDKs (L2108): one catch covers both. */
export class AgentError extends SamplingError {
  constructor(message: string, init: HostCallErrorInit) {
    super(message, init);
    this.name = "AgentError";
  }
}

/** `storage/*` and `files/*` (they share codes -32021…-32029). */
export class StorageError extends HostCallError {
  constructor(message: string, init: HostCallErrorInit) {
    super(message, init);
    this.name = "StorageError";
  }
}

/** `image/generate` and `image/edit`. */
export class ImageError extends HostCallError {
  constructor(message: string, init: HostCallErrorInit) {
    super(message, init);
    this.name = "ImageError";
  }
}

/** `host/uploadFile`, including the local 8 MiB inline pre-check. */
export class UploadError extends HostCallError {
  constructor(message: string, init: HostCallErrorInit) {
    super(message, init);
    this.name = "UploadError";
  }
}

/** `embeddings/create`. */
export class EmbeddingsError extends HostCallError {
  constructor(message: string, init: HostCallErrorInit) {
    super(message, init);
    this.name = "EmbeddingsError";
  }
}

/** `web/*` (-32521…-32528, R157). */
export class WebError extends HostCallError {
  constructor(message: string, init: HostCallErrorInit) {
    super(message, init);
    this.name = "WebError";
  }
}

/** `credentials/*` (-32061…-32064, R69). */
export class CredentialsError extends HostCallError {
  constructor(message: string, init: HostCallErrorInit) {
    super(message, init);
    this.name = "CredentialsError";
  }
}

const ERROR_CLASS: Record<
  HostFamily,
  new (message: string, init: HostCallErrorInit) => HostCallError
> = {
  sampling: SamplingError,
  agent: AgentError,
  storage: StorageError,
  files: StorageError,
  image: ImageError,
  upload: UploadError,
  embeddings: EmbeddingsError,
  web: WebError,
  credentials: CredentialsError,
};

/** Builds the family's error class; used by the reverse channel and the clients' pre-checks. */
export function hostCallError(
  family: HostFamily,
  message: string,
  init: HostCallErrorInit,
): HostCallError {
  return new ERROR_CLASS[family](message, init);
}
