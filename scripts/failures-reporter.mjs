// A node:test reporter for repeat-tests: one JSON line per failed test — its file, its name under its parent tests,
// and the first line of its error. A parent that failed only because a subtest did is not repeated. When a whole
// file fails (it timed out, or crashed), the line says which of its tests was still running.
export default async function* failures(source) {
  const names = new Map(); // file → name per nesting level (files run concurrently, so one stack per file)
  const finished = new Map(); // file → top-level tests passed so far
  const running = new Map(); // file → the top-level test it began last (dequeued: actually started)
  for await (const { type, data } of source) {
    const topLevel = data?.nesting === 0 && data.name !== data.file;
    if (type === "test:pass" && topLevel) finished.set(data.file, (finished.get(data.file) ?? 0) + 1);
    if (type === "test:dequeue" && topLevel) running.set(data.file, data.name);
    if (type !== "test:start" && type !== "test:fail") continue;
    const stack = names.get(data.file) ?? [];
    names.set(data.file, stack);
    const wholeFile = type === "test:fail" && data.nesting === 0 && data.name === data.file;
    if (!wholeFile) {
      stack[data.nesting] = data.name;
      stack.length = data.nesting + 1;
    }
    const error = data.details?.error;
    if (type === "test:fail" && error?.failureType !== "subtestsFailed") {
      let message = String(error?.cause?.message ?? error?.message ?? error).split("\n")[0];
      if (wholeFile)
        message += ` (${finished.get(data.file) ?? 0} of its tests had passed; last begun: ${running.get(data.file) ?? "none"})`;
      yield `${JSON.stringify({ file: data.file ?? "", name: wholeFile ? "(the whole file)" : stack.join(" › "), error: message })}\n`;
    }
  }
}
