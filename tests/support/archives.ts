// Archives built byte by byte for install tests: a ustar writer and a zip writer that can say
// anything a hostile archive says (`../x` names, absolute paths, links out, devices, sizes that
// lie), which library writers refuse to produce.
import { crc32, deflateRawSync, gzipSync } from "node:zlib";

export type TarEntry =
  | { name: string; type?: "file"; data: string | Buffer; mode?: number }
  | { name: string; type: "dir"; mode?: number }
  | { name: string; type: "symlink" | "hardlink"; target: string }
  | { name: string; type: "chardev" | "fifo" };

const TAR_TYPE = { file: "0", hardlink: "1", symlink: "2", chardev: "3", dir: "5", fifo: "6" };

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, "0") + "\0";
}

function tarHeader(name: string, mode: number, size: number, type: string, link: string): Buffer {
  const h = Buffer.alloc(512);
  if (Buffer.byteLength(name) > 100) throw new Error(`test tar: name too long: ${name}`);
  h.write(name, 0, 100, "utf8");
  h.write(octal(mode, 8), 100, 8, "ascii");
  h.write(octal(0, 8), 108, 8, "ascii");
  h.write(octal(0, 8), 116, 8, "ascii");
  h.write(octal(size, 12), 124, 12, "ascii");
  h.write(octal(1_700_000_000, 12), 136, 12, "ascii");
  h.write("        ", 148, 8, "ascii");
  h.write(type, 156, 1, "ascii");
  h.write(link, 157, 100, "utf8");
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return h;
}

/** An uncompressed tar of `entries`, in order. */
export function tar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? "file";
    if (type === "file") {
      const f = e as { data: string | Buffer; mode?: number };
      const data = Buffer.from(f.data);
      parts.push(tarHeader(e.name, f.mode ?? 0o644, data.length, TAR_TYPE.file, ""));
      parts.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
    } else if (type === "dir") {
      parts.push(tarHeader(e.name, (e as { mode?: number }).mode ?? 0o755, 0, TAR_TYPE.dir, ""));
    } else if (type === "symlink" || type === "hardlink") {
      parts.push(tarHeader(e.name, 0o777, 0, TAR_TYPE[type], (e as { target: string }).target));
    } else {
      parts.push(tarHeader(e.name, 0o644, 0, TAR_TYPE[type], ""));
    }
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export const tarGz = (entries: readonly TarEntry[]): Buffer => gzipSync(tar(entries));

export interface ZipEntry {
  name: string;
  data?: string | Buffer;
  /** Unix mode with type bits (0o100755, 0o120777 for a link, 0o040755 for a folder). */
  mode?: number;
  /** Deflate (default) or store. */
  store?: boolean;
  /** Lie about the uncompressed size in both headers. */
  declaredSize?: number;
}

/** A zip "made by Unix" so modes and link bits survive, as `zip -y` writes them. */
export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.from(e.data ?? "");
    const body = e.store ? data : deflateRawSync(data);
    const method = e.store ? 0 : 8;
    const crc = crc32(data);
    const size = e.declaredSize ?? data.length;
    const name = Buffer.from(e.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
