// A node:test reporter for `npm test` (scripts/run-tests.mjs): files done out of the total and each failure the
// moment it happens, on stderr, beside node's own reporter (whose closing summary CI reads, untouched on stdout).
// The total comes from DOCKET_TEST_FILES_TOTAL, set by run-tests.mjs; a file is done when node summarises it.
import { relative } from "node:path";

const total = Number(process.env.DOCKET_TEST_FILES_TOTAL) || undefined;

const short = (file) => (file ? relative(process.cwd(), file) : "(no file)");
const firstLine = (error) => String(error?.cause?.message ?? error?.message ?? error ?? "").split("\n")[0];

export default async function* progress(source) {
  let done = 0;
  let failedFiles = 0;
  let failures = 0;
  for await (const event of source) {
    if (event.type === "test:fail") {
      const { name, file, details } = event.data;
      // A test that failed only because one inside it did is said once, by the inner one.
      if (details?.error?.failureType === "subtestsFailed") continue;
      failures += 1;
      yield `✖ FAIL ${short(file)} › ${name}: ${firstLine(details?.error)}\n`;
    } else if (event.type === "test:summary" && event.data.file !== undefined) {
      done += 1;
      const { counts } = event.data;
      if (counts.failed > 0) failedFiles += 1;
      const mark = counts.failed > 0 ? `✖ ${counts.failed} failed` : "✔";
      const failed = failures > 0 ? ` · ${failures} failure${failures === 1 ? "" : "s"} so far` : "";
      yield `[${done}${total ? `/${total}` : ""} files${failed}] ${mark} ${short(event.data.file)} (${counts.tests} tests)\n`;
    }
  }
  if (done > 0)
    yield `progress: ${done}${total ? ` of ${total}` : ""} files done, ${failedFiles} with failures, ${failures} failing test${failures === 1 ? "" : "s"}\n`;
}
