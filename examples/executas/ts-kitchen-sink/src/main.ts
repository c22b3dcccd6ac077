#!/usr/bin/env node
import { kitchenSinkPlugin } from "./kitchen-sink-plugin.js";

await kitchenSinkPlugin.serve();
