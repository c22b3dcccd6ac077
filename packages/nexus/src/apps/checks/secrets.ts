// Secrets committed in a bundle: every file of a bundle is public to anyone who can load the app,
// so a private key or an API token in it is leaked the moment the version is published. Each
// pattern is the provider's documented token shape (prefix, alphabet and length), so prose that
// merely mentions "api key" does not match. A finding names the kind, the file and the line;
// never the secret, which the review record would otherwise copy to more readers.
import type { PreReviewCheck, ReviewFinding } from "../pre-review.js";
import { lineAt, textFiles } from "./bundle-text.js";

interface SecretPattern {
  kind: string;
  pattern: RegExp;
  /** A match that is a provider's published placeholder, not a key. */
  placeholder?: (match: string) => boolean;
}

const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    kind: "a PEM private key",
    pattern: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/g,
  },
  {
    kind: "an AWS access key id",
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
    placeholder: (m) => m.endsWith("EXAMPLE"),
  },
  {
    kind: "an AWS secret access key",
    pattern: /aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
    placeholder: (m) => m.includes("EXAMPLEKEY"),
  },
  { kind: "an Anthropic API key", pattern: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}/g },
  {
    kind: "an OpenAI API key",
    pattern:
      /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})/g,
  },
  {
    kind: "a GitHub token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b/g,
  },
  {
    kind: "a Slack token",
    pattern: /\bxox[abposr]-[0-9]{10,13}-[0-9A-Za-z-]{10,}/g,
  },
  {
    kind: "a Slack webhook URL",
    pattern:
      /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{8,}\/B[A-Z0-9]{8,}\/[A-Za-z0-9]{24}/g,
  },
];

/** `.env`, `.env.production`, `config/.env.local`…, but not the committed templates. */
const ENV_FILE = /(?:^|\/)\.env(?:\.[A-Za-z0-9_-]+)?$/;
const ENV_TEMPLATE = /\.env\.(?:example|sample|template|dist)$/;
/** Key stores whose contents are binary, so no pattern would see them. */
const KEY_STORE = /\.(?:p12|pfx|jks|keystore)$/i;

export const secretsCheck: PreReviewCheck = {
  id: "secrets",
  async run(input) {
    const findings: ReviewFinding[] = [];
    for (const file of input.bundle?.files ?? []) {
      const path = file.relative_path;
      if (ENV_FILE.test(path) && !ENV_TEMPLATE.test(path)) {
        findings.push({
          check: "secrets",
          severity: "error",
          path,
          message: `${path} is an environment file: everything in a bundle is public once published; remove it and keep secrets on a server (an executa reads them from credentials)`,
        });
      } else if (KEY_STORE.test(path)) {
        findings.push({
          check: "secrets",
          severity: "error",
          path,
          message: `${path} looks like a key store: remove it from the bundle; everything in a bundle is public once published`,
        });
      }
    }
    const skipped = (f: { relative_path: string; byte_size: number }) =>
      findings.push({
        check: "secrets",
        severity: "info",
        path: f.relative_path,
        message: `${f.relative_path} (${f.byte_size} bytes) is too large to scan for secrets; check it by hand`,
      });
    for await (const { file, text } of textFiles(input, () => true, skipped)) {
      for (const { kind, pattern, placeholder } of SECRET_PATTERNS) {
        for (const match of text.matchAll(pattern)) {
          if (placeholder?.(match[0])) continue;
          findings.push({
            check: "secrets",
            severity: "error",
            path: file.relative_path,
            message: `${file.relative_path} line ${lineAt(text, match.index)} contains what looks like ${kind}: revoke it with its provider, remove it from the bundle and publish a new version`,
          });
        }
      }
    }
    return findings;
  },
};
