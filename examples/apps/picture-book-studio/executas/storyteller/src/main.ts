#!/usr/bin/env node
import { storytellerPlugin } from "./storyteller-plugin.js";

await storytellerPlugin.serve();
