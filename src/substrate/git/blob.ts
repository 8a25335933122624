// Reads one file as it was in a commit (`<commit>:<path>`), checked against the blob id a frozen patch names.
// Content-addressed, so what it returns is exactly the pre-image the patch was made against; an argument array, no shell.

import { spawnSync } from "node:child_process";
import { envWithoutGit, gitBinary, neutralArgs } from "./git-binary.js";

function git(cwd: string, args: string[]): { ok: boolean; stdout: Buffer } {
  const r = spawnSync(gitBinary(), [...neutralArgs(), ...args], {
    cwd,
    env: envWithoutGit({ LC_ALL: "C" }),
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { ok: r.status === 0, stdout: r.stdout };
}

export type BlobRead = { ok: true; id: string; bytes: Buffer } | { ok: false; reason: string };

/**
 * The blob at `<commit>:<path>` in the repository at `repo`. When `expectBlob` (full or abbreviated) is given, the
 * blob's id must start with it, so a path that meant another object at that commit is refused rather than shown.
 */
export function readBlobAt(repo: string, commit: string, path: string, expectBlob?: string): BlobRead {
  if (!/^[0-9a-f]{7,64}$/.test(commit)) return { ok: false, reason: `"${commit}" is not a commit id` };
  const id = git(repo, ["rev-parse", "--verify", "--quiet", `${commit}:${path}`]);
  if (!id.ok) return { ok: false, reason: `${path} is not in commit ${commit.slice(0, 12)} in ${repo}` };
  const blob = id.stdout.toString("utf8").trim();
  if (expectBlob !== undefined && !blob.startsWith(expectBlob))
    return {
      ok: false,
      reason: `${path} at ${commit.slice(0, 12)} is blob ${blob.slice(0, 12)}, not ${expectBlob} as the patch says`,
    };
  const body = git(repo, ["cat-file", "blob", blob]);
  if (!body.ok) return { ok: false, reason: `blob ${blob.slice(0, 12)} cannot be read in ${repo}` };
  return { ok: true, id: blob, bytes: body.stdout };
}

/** A pack of `commit` and its whole history in the repository at `repo` (for a worker's host, which fetches nothing). */
export function packHistory(repo: string, commit: string): Buffer {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new Error(`"${commit}" is not a full commit id`);
  const r = spawnSync(gitBinary(), [...neutralArgs(), "pack-objects", "--revs", "--stdout", "-q"], {
    cwd: repo,
    env: envWithoutGit({ LC_ALL: "C" }),
    input: `${commit}\n`,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`git pack-objects failed: ${r.stderr.toString("utf8").trim().split("\n")[0]}`);
  return r.stdout;
}
