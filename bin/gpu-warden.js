#!/usr/bin/env node
// Runs the compiled JavaScript in dist/ (`npm run build`); the published package ships it built.
let cli;
try {
  cli = await import("../dist/cli.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("dist/cli.js")) throw error;
  process.stderr.write("gpu-warden: dist/ is missing: run `npm run build` in the checkout first\n");
  process.exit(1);
}
process.exitCode = await cli.runCli(process.argv.slice(2));
