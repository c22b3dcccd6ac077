import type { Grant, ServiceContext } from "@anna-ai/executa-host";
import { onTestFinished } from "vitest";
import { createLlmGateway, MemoryUsageLedger, parseLlmConfig } from "../src/index.js";
import type { ChatEvent, LlmConfigInput, LlmGateway, LlmGatewayOptions } from "../src/index.js";
import { startFakeProvider } from "../src/test-kit/index.js";
import type { FakeProvider } from "../src/test-kit/index.js";

export const TEST_KEY = "sk-test-0123456789abcdef";

export const ACCOUNT = { userId: "u_alice", appId: "app_notes", toolId: "tool_notes" };

export async function fakeProvider(): Promise<FakeProvider> {
  const fake = await startFakeProvider({ apiKey: TEST_KEY });
  onTestFinished(() => fake.close());
  return fake;
}

export interface Harness {
  fake: FakeProvider;
  gateway: LlmGateway;
  ledger: MemoryUsageLedger;
  /** Delays the gateway asked to sleep for, in order. */
  sleeps: number[];
}

/** A gateway on `input` pointed at a fresh fake provider, with recorded sleeps. */
export async function harness(
  input: LlmConfigInput | ((baseUrl: string) => LlmConfigInput),
  options: Partial<LlmGatewayOptions> = {},
): Promise<Harness> {
  const fake = await fakeProvider();
  const settings = typeof input === "function" ? input(fake.baseUrl) : input;
  const ledger = new MemoryUsageLedger();
  const sleeps: number[] = [];
  const gateway = createLlmGateway({
    config: parseLlmConfig({ apiKey: TEST_KEY, baseUrl: fake.baseUrl, ...settings }),
    usage: ledger,
    quota: ledger,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    ...options,
  });
  return { fake, gateway, ledger, sleeps };
}

export async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

export function textOf(events: readonly ChatEvent[]): string {
  return events.map((e) => (e.type === "text-delta" ? e.text : "")).join("");
}

/** The context the router gives a host service, for Alice's invoke of the notes tool. */
export function serviceCtx<G extends Grant>(
  overrides: Partial<ServiceContext<G>> = {},
): ServiceContext<G> {
  return {
    userId: ACCOUNT.userId,
    toolId: ACCOUNT.toolId,
    invokeId: "inv_1",
    pluginName: "notes",
    tool: "summarize",
    deadlineMs: Date.now() + 60_000,
    signal: new AbortController().signal,
    grant: {} as G,
    app: { appId: ACCOUNT.appId, appScopeGranted: false },
    ...overrides,
  };
}
