import { grantPass } from "../src/usecases/queue/queue-grant-pass.ts";
import { queueDeps } from "./queue-fixture.ts";

// One grant pass from its own process on the queue benchmark's store (argv: the file, the time),
// racing the others; prints how many requests it granted.
const [path, at] = process.argv.slice(2);
if (path === undefined || at === undefined) throw new Error("usage: queue-pass.ts <store> <nowMs>");
const { deps, db } = queueDeps(path, Number(at));
process.stdout.write(`${grantPass(deps, Number(at)).length}\n`);
db.close();
