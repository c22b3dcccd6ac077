// The Developer Terms of Service a person accepts when activating developer access (the
// activation card of the Developer Console, `POST /api/v1/developer/profile/activate`). This is
// the default text, the upstream platform's terms with "the Platform" meaning this deployment;
// an operator replaces it with ANNA_DEVELOPER_TERMS_FILE and bumps ANNA_DEVELOPER_TERMS_VERSION,
// so that people accept the text they read (the version is what activation checks).
export const DEFAULT_DEVELOPER_TERMS = `By checking "I have read and accept the Developer Terms of Service" and clicking **Activate developer access**, you ("the Developer") agree to the following terms with the Anna platform ("the Platform").

## 1. Developer access

1. Developer access lets you create, submit, and publish **Anna Apps** and related content through the Developer Console, the \`anna-app\` CLI, and the developer APIs.
2. You must have a registered account with a verified email address. You are responsible for all activity performed with your account and credentials (including Personal Access Tokens).
3. Access is granted to you personally (or to the legal entity you represent) and is not transferable.

## 2. Your responsibilities

You agree that everything you submit or publish:

1. is your own work or work you have the rights to distribute, and does not infringe any third-party intellectual-property, privacy, or other rights;
2. contains no malware, spyware, hidden data collection, or functionality that damages users, their data, or the Platform;
3. does not attempt to bypass Platform security controls, sandbox restrictions, review processes, rate limits, or billing;
4. complies with applicable laws and does not contain illegal, hateful, or deceptive content;
5. accurately describes what it does — listings, manifests, and requested permissions must match the actual behavior of the app.

## 3. Review and publishing

1. App listings are subject to review before first publication. The Platform may approve, reject, or request changes at its discretion.
2. Published versions may additionally be subject to release review before going live.
3. The Platform may remove, archive, or block any app or version that violates these terms or poses a risk to users, without prior notice.

## 4. Your public identity

1. Your \`developer_handle\` is a globally unique public identifier. Handles that impersonate other people, brands, or the Platform are prohibited and may be reclaimed.
2. Your public developer profile must not contain misleading or unlawful content.

## 5. Revenue and payouts

If your apps participate in the Platform revenue-share program, payouts are governed by the revenue-share and payout rules published by the Platform (minimum payout thresholds, payout review, and account information requirements). Fraudulent activity — including self-dealing or artificial usage inflation — forfeits accrued earnings and may result in termination.

## 6. Suspension and revocation

1. The Platform may revoke developer access at any time for violation of these terms.
2. Revoked accounts cannot re-activate developer access themselves; reinstatement requires contacting Platform support.
3. Revocation does not by itself delete your published apps, but the Platform may separately remove them under §3.3.

## 7. Disclaimer and liability

1. Developer tooling and APIs are provided **"as is"**, without warranty of any kind. The Platform does not guarantee uninterrupted availability of developer services.
2. To the maximum extent permitted by law, the Platform is not liable for indirect or consequential damages arising from your use of developer services.
3. You are solely responsible for the apps you publish and for any claims arising from them.

## 8. Changes to these terms

The Platform may update these terms. The version identifier at the top of this page changes with every update. Continued use of developer features after an update — or accepting the new version during activation — constitutes acceptance. Material changes may require existing developers to re-accept before continuing to publish.

## 9. Contact

Questions about these terms or a revoked account: reach Platform support through your usual channel (forum or support email).
`;
