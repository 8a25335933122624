// Paths in project coordinates: what a worker touched inside its own worktree, and what a human's text names.
// A worktree prefix is removed so a worker's absolute edits meet another's repo-relative frozen paths.

/** `a/./b//c/../d` → `a/b/d`; undefined when it climbs above its start. */
export function normalizeRelative(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.length === 0 ? undefined : out.join("/");
}

function below(prefix: string, path: string): string | undefined {
  const p = prefix.replace(/\/+$/, "");
  if (p === "" || !path.startsWith(`${p}/`)) return undefined;
  return normalizeRelative(path.slice(p.length + 1));
}

/**
 * A path as a worker's tool saw it, in project coordinates: relative to its workspace (the tool's cwd), or absolute
 * inside its workspace or the project; undefined when it lies outside both (another checkout, /tmp, the home).
 */
export function toProjectPath(raw: string, where: { workspace: string; projectRoot: string }): string | undefined {
  const path = raw.trim();
  if (path === "" || path.includes("\0")) return undefined;
  if (!path.startsWith("/")) return normalizeRelative(path);
  const normalized = `/${normalizeRelative(path) ?? ""}`;
  return below(where.workspace, normalized) ?? below(where.projectRoot, normalized);
}

/** File name endings that make a bare word a path (`rate-limit.ts`), beside anything containing a slash. */
const CODE_EXTENSIONS = new Set([
  "ts",
  "tsx",
  "js",
  "jsx",
  "mjs",
  "cjs",
  "json",
  "md",
  "py",
  "rb",
  "go",
  "rs",
  "java",
  "kt",
  "c",
  "h",
  "cc",
  "cpp",
  "hpp",
  "cs",
  "swift",
  "php",
  "sh",
  "bash",
  "zsh",
  "yml",
  "yaml",
  "toml",
  "ini",
  "cfg",
  "conf",
  "sql",
  "html",
  "css",
  "scss",
  "vue",
  "svelte",
  "txt",
  "lock",
  "env",
  "xml",
  "gradle",
  "proto",
  "tf",
  "lua",
  "ex",
  "exs",
  "erl",
  "hs",
  "ml",
  "scala",
]);

/** Tokens of `text` that name files: anything with a slash (not a URL), or a word with a known code/config extension. */
export function pathsInText(text: string, projectRoot?: string): string[] {
  const found = new Set<string>();
  for (const raw of text.split(/[\s`'"()<>[\]{},;]+/)) {
    const token = raw.replace(/[.:!?]+$/, "");
    if (token === "" || /^[a-z][a-z0-9+.-]*:\/\//i.test(token)) continue;
    const ext = /\.([A-Za-z0-9]+)$/.exec(token)?.[1]?.toLowerCase();
    if (!token.includes("/") && !(ext && CODE_EXTENSIONS.has(ext))) continue;
    const path = token.startsWith("/") && projectRoot ? below(projectRoot, token) : normalizeRelative(token);
    if (path && !path.startsWith("-")) found.add(path);
  }
  return [...found];
}

/** File names so common that sharing one says little (`index.ts` is everywhere): a match on them alone is a maybe. */
const GENERIC_NAMES = new Set([
  "index.ts",
  "index.js",
  "index.tsx",
  "index.jsx",
  "index.html",
  "index.md",
  "readme.md",
  "package.json",
  "tsconfig.json",
  "main.ts",
  "main.js",
  "main.go",
  "main.py",
  "main.rs",
  "mod.rs",
  "lib.rs",
  "__init__.py",
  "init.py",
  "setup.py",
  "makefile",
  "dockerfile",
  "config.json",
  "config.ts",
  "config.js",
  "types.ts",
  "utils.ts",
  "utils.js",
  "util.ts",
  "helpers.ts",
  "app.ts",
  "app.js",
  "server.ts",
  "test.ts",
  "changelog.md",
  ".gitignore",
  "cargo.toml",
  "go.mod",
  "pyproject.toml",
]);

export type PathMatch = "exact" | "suffix" | "name" | "common-name";

const basename = (p: string): string => p.slice(p.lastIndexOf("/") + 1);

/**
 * How a path named in text meets a path a worker touched. Exact; a suffix at a directory boundary when the shorter
 * side has at least two segments (`limits/rate.ts` meets `src/limits/rate.ts`); a bare file name that equals the
 * other's name (`name`, or `common-name` for names like index.ts that are everywhere); otherwise no match.
 */
export function matchPath(named: string, touched: string): PathMatch | undefined {
  if (named === touched) return "exact";
  const [shorter, longer] = named.length <= touched.length ? [named, touched] : [touched, named];
  if (shorter.includes("/") && longer.endsWith(`/${shorter}`)) return "suffix";
  if (!named.includes("/") && basename(touched) === named)
    return GENERIC_NAMES.has(named.toLowerCase()) ? "common-name" : "name";
  return undefined;
}
