// Another process spending a shared throttle (test/http/shared-throttle.db.test.ts): prints "ready", waits for a
// line on stdin (so that processes start together), then takes from the bucket N times at once and prints how many
// were allowed.
import { SharedThrottle } from "../../app/http/throttle.server";

const [name, key, times] = process.argv.slice(2);
const throttle = new SharedThrottle(name, { capacity: 5, refillMs: 60_000 });
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
const verdicts = await Promise.all(Array.from({ length: Number(times) }, () => throttle.take(key)));
process.stdout.write(`${verdicts.filter((v) => v.allowed).length}\n`);
process.exit(0);
