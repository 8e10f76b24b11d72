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
await import("./program.js");
