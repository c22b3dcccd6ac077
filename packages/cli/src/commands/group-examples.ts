// Examples printed under a command group's help (`anna-app fixture --help`), one per member at
// least, so the group's page alone shows how its commands are typed.
export const GROUP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  fixture: [
    "anna-app fixture verify fixtures/*.jsonl",
    "anna-app fixture summarize fixtures/happy-path.jsonl",
    "anna-app fixture replay fixtures/happy-path.jsonl --manifest manifest.json",
  ],
};
