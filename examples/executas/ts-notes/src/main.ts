#!/usr/bin/env node
import { notesPlugin } from "./notes-plugin.js";

await notesPlugin.serve();
