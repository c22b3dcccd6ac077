// Every child (worker, plugin, bare node) gets this environment and nothing else: an inherited
// NODE_EXTRA_CA_CERTS alone adds ~28 ms to each Node start, NODE_OPTIONS can load anything, and
// differences between implementations would show up as noise in spawn and memory figures.

export type ChildEnv = Readonly<Record<string, string>>;

export function minimalEnv(source: NodeJS.ProcessEnv = process.env): ChildEnv {
  return {
    PATH: source["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: source["HOME"] ?? "/tmp",
    LANG: "C.UTF-8",
  };
}
