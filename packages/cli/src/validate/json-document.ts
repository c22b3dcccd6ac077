// The position-keeping JSON parser lives in @anna-ai/app-schema so executa-host (which cannot
// import from the CLI) reports `executa.json` and mock-file syntax errors with line and column too.
export * from "@anna-ai/app-schema/json-document";
