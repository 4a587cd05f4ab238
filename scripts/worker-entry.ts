// The compiled worker's entry (build/worker/worker-entry.js, `npm run worker`; scripts/build-node.ts): V8's compile
// cache first, so that a worker started after another one on this machine reuses its compiled code, then the worker.
import module from "node:module";

// NODE_COMPILE_CACHE names the directory; the default is node-compile-cache under the system's temporary directory.
module.enableCompileCache(process.env.NODE_COMPILE_CACHE);
await import("./worker");
// Written now rather than at exit: a worker that is killed never exits.
module.flushCompileCache();
