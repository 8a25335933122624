// The plan contract: Goal, Constraints, numbered Steps (each optionally naming `files:`), Verification, Risks.
// A shape, never a schema: forgiving, linear, never throws; files never inferred from prose; no numbered step → not a
// plan (docs/decisions/plans.md).

import { parseFilesList, readFilesClauses } from "./plan-files.js";

export interface PlanStep {
  n: number;
  text: string;
  files: string[];
}
export interface Plan {
  goal?: string;
  constraints: string[];
  steps: PlanStep[];
  verification: string[];
  risks: string[];
  files: string[];
}

export const MAX_PLAN_STEPS = 40;
export const MAX_SECTION_ENTRIES = 12;
const MAX_LABEL = 48;

type SectionName = "goal" | "constraints" | "steps" | "verification" | "risks";

/** Case-insensitive prefixes; constraints first so `Non-goals` never reads as a goal. */
const SECTION_PREFIXES: readonly [SectionName, readonly string[]][] = [
  ["constraints", ["constraint", "non-goal", "non goal", "nongoal", "out of scope"]],
  ["goal", ["goal", "objective", "intent"]],
  ["steps", ["step", "plan", "implementation", "approach"]],
  ["verification", ["verification", "verify", "check", "test", "validation"]],
  ["risks", ["risk", "open question", "unknown", "caveat"]],
];

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const BOLD_LABEL = /^\s*(\*\*|__)([^*_]{1,80}?)[ \t]*(?::[ \t]*)?\1[ \t]*(?::[ \t]*)?$/;
const BARE_LABEL = /^\s*([A-Za-z0-9][A-Za-z0-9 /&-]*):\s*$/;
const INLINE_GOAL = /^(?:\*\*|__)?(goals?|objectives?|intent)(?:\*\*|__)?:(?:\*\*|__)?[ \t]*(\S.*)$/i;
const STEP_LINE = /^(\s*)(?:\*\*|__)?(?:step\s+(\d{1,3})\s*[.):\-–—]|(\d{1,3})[.)])(?:\*\*|__)?\s+(\S.*)$/i;
const STEP_HEAD = /^(?:step\s+(\d{1,3})\b\s*[.):\-–—]?\s*|(\d{1,3})[.)]\s+)(.*)$/i;
const GOAL_START = /[gGoOiI*_]/;
/** `**Risks:** none known` — a bold label with content; opens its section with the content as the first entry. */
const BOLD_INLINE = /^(\*\*|__)([A-Za-z][A-Za-z0-9 /&-]{0,47}?)[ \t]*(?:\1[ \t]*:|:[ \t]*\1)[ \t]*(\S.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const ENTRY_MARKER = /^\s*(?:[-*+•]\s+(?:\[[ xX]\]\s+)?|\d{1,3}[.)]\s+)/;

interface Heading {
  level: number;
  label: string;
  raw: string;
}

const indentOf = (line: string): number => {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) n++;
    else if (c === 9) n += 4;
    else break;
  }
  return n;
};

/** The first non-blank character, or "" for a blank line. */
const firstChar = (line: string): string => {
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch !== " " && ch !== "\t") return ch;
  }
  return "";
};

const lastChar = (line: string): string => {
  for (let i = line.length - 1; i >= 0; i--) {
    const ch = line[i]!;
    if (ch !== " " && ch !== "\t") return ch;
  }
  return "";
};

/** `Title ##` → `Title`; a heading made only of `#` is empty (CommonMark closing sequence). */
function stripClosingHashes(text: string): string {
  let z = text.length;
  while (z > 0 && text[z - 1] === "#") z--;
  if (z === 0) return "";
  if (z < text.length && (text[z - 1] === " " || text[z - 1] === "\t")) return text.slice(0, z).trim();
  return text;
}

/** Strips emphasis, a leading section number (`2.`, `2)`) and a trailing colon from a heading's text. */
const normalizeLabel = (text: string): string =>
  text
    .replace(/[*_`]/g, "")
    .replace(/:\s*$/, "")
    .trim()
    .replace(/^\d{1,3}[.)]\s*/, "")
    .replace(/\s+/g, " ")
    .trim();

/** Markdown `#` heading (level 1–6), `**Label:**` / `__Label__` (level 7), or a bare `Label:` line (level 7). */
function readHeading(line: string, first: string): Heading | undefined {
  const atx = first === "#" ? ATX.exec(line) : null;
  if (atx) {
    const raw = stripClosingHashes((atx[2] ?? "").trim());
    return { level: atx[1]!.length, label: normalizeLabel(raw), raw: raw.replace(/[*_`]/g, "").trim() };
  }
  const last = lastChar(line);
  if (last !== ":" && last !== "*" && last !== "_") return undefined;
  const bold = first === "*" || first === "_" ? BOLD_LABEL.exec(line) : null;
  if (bold) return { level: 7, label: normalizeLabel(bold[2]!), raw: bold[2]!.trim() };
  const bare = last === ":" ? BARE_LABEL.exec(line) : null;
  if (bare && bare[1]!.length <= MAX_LABEL && /[A-Za-z]/.test(bare[1]!))
    return { level: 7, label: normalizeLabel(bare[1]!), raw: bare[1]!.trim() };
  return undefined;
}

function sectionOf(label: string): SectionName | undefined {
  const l = label.toLowerCase();
  for (const [name, prefixes] of SECTION_PREFIXES) if (prefixes.some((p) => l.startsWith(p))) return name;
  return undefined;
}

const isFilesLabel = (label: string): boolean => /^files?$/i.test(label);

class PlanBuilder {
  readonly steps: PlanStep[] = [];
  readonly lists: Record<Exclude<SectionName, "steps">, string[]> = {
    goal: [],
    constraints: [],
    verification: [],
    risks: [],
  };
  section: SectionName | undefined;
  sectionLevel = 0;
  stepIndent = -1;
  fileList = false;
  joinable = false;

  open(section: SectionName | undefined, level: number): void {
    this.section = section;
    this.sectionLevel = level;
    this.fileList = false;
    this.joinable = false;
  }

  get step(): PlanStep | undefined {
    return this.steps[this.steps.length - 1];
  }

  addStep(text: string, indent: number): void {
    this.fileList = false;
    if (this.steps.length >= MAX_PLAN_STEPS) {
      this.section = undefined;
      return;
    }
    if (this.stepIndent < 0) this.stepIndent = indent;
    const read = readFilesClauses(text);
    this.steps.push({ n: this.steps.length + 1, text: read.text, files: read.files });
    this.fileList = read.open;
  }

  addFiles(files: string[]): void {
    const step = this.step;
    if (!step) return;
    for (const f of files) if (!step.files.includes(f)) step.files.push(f);
  }

  /** A line of a list section: a marker starts an entry; an unmarked line continues the previous one unless a blank line intervened. */
  addEntry(section: Exclude<SectionName, "steps">, line: string): void {
    const list = this.lists[section];
    const marked = ENTRY_MARKER.test(line);
    const text = line.replace(ENTRY_MARKER, "").trim();
    if (text === "") return;
    if (!marked && this.joinable && list.length > 0 && list.length <= MAX_SECTION_ENTRIES) {
      list[list.length - 1] = `${list[list.length - 1]} ${text}`;
    } else if (list.length < MAX_SECTION_ENTRIES) {
      list.push(text);
    } else {
      this.joinable = false;
      return;
    }
    this.joinable = true;
  }
}

/** A heading inside the steps section that is itself a step (`### 2. Wire it`, `**Step 3: Test**`). */
function headingStep(b: PlanBuilder, h: Heading): string | undefined {
  if (b.section !== "steps") return undefined;
  const m = STEP_HEAD.exec(h.raw.replace(/:\s*$/, ""));
  if (!m) return undefined;
  const explicit = m[1] !== undefined;
  if (!explicit && h.level <= b.sectionLevel && h.level < 7) return undefined;
  const text = m[3]!.trim();
  return text === "" ? h.raw.trim() : text;
}

function onHeading(b: PlanBuilder, h: Heading, line: string): void {
  const stepText = headingStep(b, h);
  if (stepText !== undefined) {
    b.addStep(stepText, indentOf(line));
    return;
  }
  if (b.section === "steps" && b.step && isFilesLabel(h.label)) {
    b.fileList = true;
    return;
  }
  const section = sectionOf(h.label);
  if (section) {
    b.open(section, h.level);
    const first = section === "steps" ? STEP_HEAD.exec(h.raw.replace(/:\s*$/, "")) : null;
    if (first?.[1] !== undefined) {
      b.addStep(first[3]!.trim() || h.raw.trim(), indentOf(line));
    } // `## Step 1: …` opens the steps and is one
    if (section === "goal" && h.raw.includes(":")) {
      const rest = h.raw.slice(h.raw.indexOf(":") + 1).trim();
      if (rest !== "") {
        b.addEntry("goal", rest);
        b.joinable = false;
      }
    }
    return;
  }
  // An unrecognised heading closes the section, unless it is a sub-heading nested under the section's own heading.
  if (b.section !== undefined && h.level > b.sectionLevel && h.level < 7 && b.sectionLevel < 7) return;
  b.open(undefined, 0);
}

/** Handles `**Verification:** run the tests`; false when the line is not a bold label of a list section. */
function onBoldInline(b: PlanBuilder, line: string, first: string): boolean {
  if (first !== "*" && first !== "_") return false;
  const m = BOLD_INLINE.exec(line.trim());
  const section = m ? sectionOf(normalizeLabel(m[2]!)) : undefined;
  if (!m || section === undefined || section === "steps" || isFilesLabel(m[2]!.trim())) return false;
  b.open(section, 7);
  b.addEntry(section, m[3]!);
  return true;
}

function onLine(b: PlanBuilder, line: string): void {
  if (line.trim() === "") {
    b.joinable = false;
    return;
  }
  if (b.section === "steps") {
    const step = STEP_LINE.exec(line);
    const indent = indentOf(line);
    if (step && (b.stepIndent < 0 || indent <= b.stepIndent + 1)) {
      b.addStep(step[4]!, indent);
      return;
    }
    if (!b.step) return;
    if (b.fileList) {
      if (/^\s*[-*+•]\s+/.test(line)) {
        b.addFiles(parseFilesList(line.replace(/^\s*[-*+•]\s+/, "")));
        return;
      }
      b.fileList = false;
    }
    const read = readFilesClauses(line);
    b.addFiles(read.files);
    if (read.open) b.fileList = true;
    return;
  }
  if (b.section !== undefined) b.addEntry(b.section, line);
}

/** Parses a deliverable body as a plan; undefined when it has no numbered step in a steps section. */
export function parsePlan(body: string): Plan | undefined {
  const b = new PlanBuilder();
  let fence: string | undefined;
  for (const line of body.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const first = firstChar(line);
    const f = first === "`" || first === "~" ? FENCE.exec(line) : null;
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      b.joinable = false;
      continue;
    }
    if (first === "") {
      b.joinable = false;
      continue;
    }
    const indent = indentOf(line);
    const nested = b.section === "steps" && b.step !== undefined && indent >= 2 && !(first === "#" && ATX.test(line));
    const inlineGoal = indent === 0 && GOAL_START.test(first) ? INLINE_GOAL.exec(line.trim()) : null;
    const heading = readHeading(line, first);
    if (heading && !(nested && !isFilesLabel(heading.label))) onHeading(b, heading, line);
    else if (inlineGoal && !(b.section === "steps" && b.step)) {
      b.open("goal", 7);
      b.addEntry("goal", inlineGoal[2]!);
      b.joinable = false;
    } else if (nested || !onBoldInline(b, line, first)) onLine(b, line);
  }
  if (b.steps.length === 0) return undefined;
  const files = new Set<string>();
  for (const s of b.steps) for (const f of s.files) files.add(f);
  const rest = {
    constraints: b.lists.constraints,
    steps: b.steps,
    verification: b.lists.verification,
    risks: b.lists.risks,
    files: [...files],
  };
  const goal = b.lists.goal[0];
  return goal === undefined ? rest : { goal, ...rest };
}
