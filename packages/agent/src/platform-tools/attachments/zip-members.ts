// Named members of a zip held in memory (an XLSX is one), read through yauzl, the zip reader the
// repo already uses for installs. Bounded against zip bombs: the member count, each member's
// declared size and the total inflated bytes are capped, and yauzl checks that each member
// inflates to exactly its declared size.
import yauzl from "yauzl";
import { PlatformToolError } from "../platform-tool.js";

export interface ZipLimits {
  maxEntries: number;
  maxMemberBytes: number;
  maxTotalBytes: number;
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The members `wanted(name)` accepts, by name; anything past the limits fails the read. */
export async function zipMembers(
  bytes: Uint8Array,
  label: string,
  limits: ZipLimits,
  wanted: (name: string) => boolean,
): Promise<Map<string, Buffer>> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      {
        lazyEntries: true,
        validateEntrySizes: true,
      },
    );
  } catch (error) {
    throw new PlatformToolError(
      "INVALID_ARGUMENT",
      `${label} is not a readable workbook (${(error as Error).message}); ask for the file to be saved again`,
      { cause: error },
    );
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new PlatformToolError(
      "TOO_LARGE",
      `${label} has ${zip.entryCount} zip members; workbooks with more than ${limits.maxEntries} are not read`,
    );
  }
  const members = new Map<string, Buffer>();
  let total = 0;
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        zip.once("entry", resolve);
        zip.once("end", () => resolve(undefined));
        zip.once("error", reject);
        zip.readEntry();
      });
      zip.removeAllListeners("entry").removeAllListeners("end").removeAllListeners("error");
      if (entry === undefined) break;
      if (!wanted(entry.fileName)) continue;
      total += entry.uncompressedSize;
      if (entry.uncompressedSize > limits.maxMemberBytes || total > limits.maxTotalBytes) {
        throw new PlatformToolError(
          "TOO_LARGE",
          `${label} inflates past ${limits.maxMemberBytes} bytes per part or ${limits.maxTotalBytes} in all; split the workbook`,
        );
      }
      members.set(entry.fileName, await readEntry(zip, entry));
    }
  } catch (error) {
    if (error instanceof PlatformToolError) throw error;
    throw new PlatformToolError(
      "INVALID_ARGUMENT",
      `${label} is a damaged workbook (${(error as Error).message})`,
      { cause: error },
    );
  } finally {
    zip.close();
  }
  return members;
}
