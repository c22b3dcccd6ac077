// The token keyring as `start` and `admin rotate-keys` open it: the KEK from ANNA_TOKEN_KEK or
// the data folder's key file, a signing key created on the first start. `start` seals users'
// executa credentials with the same KEK.
import { systemClock } from "../core/clock.js";
import type { Stores } from "../stores/types.js";
import { type KeyEncryptionKey, KeyEncryptionError, loadKek } from "../tokens/key-encryption.js";
import { SigningKeyring } from "../tokens/keyring.js";
import { EXIT, ExitError } from "./exit.js";
import type { CliIo } from "./io.js";

export async function openKeyring(
  stores: Stores,
  io: CliIo,
  dataDir: string,
): Promise<{ keyring: SigningKeyring; kid: string; kekSource: string; kek: KeyEncryptionKey }> {
  try {
    const kek = loadKek(io.env, dataDir);
    const keyring = new SigningKeyring({ store: stores.signingKeys, kek, clock: systemClock });
    const kid = await keyring.ensureKey();
    return { keyring, kid, kekSource: kek.source, kek };
  } catch (err) {
    if (err instanceof KeyEncryptionError)
      throw new ExitError(EXIT.keys, err.message, { cause: err });
    throw err;
  }
}
