#!/usr/bin/env node
/**
 * The `openapi-mcp-bridge` command. V8's compile cache is switched on before the program's
 * modules load (they are imported below, not statically, because a static import would compile
 * them first): compiling some 300 modules is the largest part of a start, and on Node 22.1 and
 * later the cache makes it a read. Node 20 has no such switch; there this file only loads the
 * program.
 */
import { enableCompileCache } from "./compile-cache.js";

enableCompileCache();
// Not awaited (the bundle is CommonJS, without top-level await); a failure to load still ends
// the process with the error, as an unhandled rejection.
void import("./program.js");
