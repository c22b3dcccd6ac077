#!/usr/bin/env node
// Thin launcher so the bin link exists before the first build; the server lives in dist/.
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));
