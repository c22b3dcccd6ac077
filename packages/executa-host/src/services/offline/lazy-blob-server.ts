// The loopback blob server behind `files/*` (and uploads, image URLs) starts on the first call
// that needs a URL, so one-shot invokes of plugins that never touch files pay nothing, and
// closes on exit.
import type { LoopbackBlobServer } from "./blob-server.js";

export interface LazyBlobServer {
  /** Started on first use; the same server afterwards. */
  get(): Promise<LoopbackBlobServer>;
  /** Whether a server was created (for tests and the banner). */
  readonly started: boolean;
  close(): Promise<void>;
}

export function lazyBlobServer(create: () => LoopbackBlobServer): LazyBlobServer {
  let server: LoopbackBlobServer | undefined;
  let starting: Promise<LoopbackBlobServer> | undefined;
  return {
    get() {
      starting ??= (async () => {
        server = create();
        await server.start();
        return server;
      })();
      return starting;
    },
    get started() {
      return server !== undefined;
    },
    async close() {
      await server?.close();
    },
  };
}

/**
 * A service whose methods first start the blob server, then delegate to the service built on
 * it. The wrapper keeps the method names, so the router sees an ordinary service object.
 */
export function lazyService<S extends object>(
  blob: LazyBlobServer,
  methods: readonly (keyof S & string)[],
  build: (server: LoopbackBlobServer) => S,
): S {
  let service: S | undefined;
  const impl: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of methods) {
    impl[name] = async (...args: unknown[]) => {
      if (service === undefined) {
        const server = await blob.get();
        service ??= build(server);
      }
      const fn = (service as Record<string, (...a: unknown[]) => Promise<unknown>>)[name];
      return fn!.apply(service, args);
    };
  }
  return impl as unknown as S;
}
