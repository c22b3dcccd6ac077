// The fake provider in a process of its own, for the `nexus` piece: its CPU then counts neither
// against the Nexus server nor against the bench process running the in-process baseline. Every
// request gets the fake's default answer (a short text: nothing is enqueued). Prints the base URL
// on one stdout line; exits when stdin closes (the bench ended or died).
import { startFakeProvider } from "@anna-ai/agent/test-kit";

const fake = await startFakeProvider({ recordRequests: false });
process.stdout.write(`${fake.baseUrl}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void fake.close().finally(() => process.exit(0));
});
