// A node:test reporter for repeat-tests: one JSON line per failed test — its file, its name under its parent tests,
// and the first line of its error. A parent that failed only because a subtest did is not repeated.
export default async function* failures(source) {
  const names = new Map(); // file → name per nesting level (files run concurrently, so one stack per file)
  for await (const { type, data } of source) {
    if (type !== "test:start" && type !== "test:fail") continue;
    const stack = names.get(data.file) ?? [];
    names.set(data.file, stack);
    stack[data.nesting] = data.name;
    stack.length = data.nesting + 1;
    const error = data.details?.error;
    if (type === "test:fail" && error?.failureType !== "subtestsFailed") {
      const message = String(error?.cause?.message ?? error?.message ?? error).split("\n")[0];
      yield `${JSON.stringify({ file: data.file ?? "", name: stack.join(" › "), error: message })}\n`;
    }
  }
}
