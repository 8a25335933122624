// Small real file systems for tests that need a read-only home or a full disk: a tmpfs mounted on a temp dir.
// Mounting needs root (CI runs as root); where it is not allowed, the caller skips and says why.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

type T = { after(fn: () => void): void };

/** A fresh tmpfs of `sizeKb` mounted on a temp dir (unmounted when the test ends), or the reason it cannot be had. */
export function tmpfs(t: T, sizeKb: number): { dir: string } | { skip: string } {
  const parent = mkdtempSync(join(tmpdir(), "docket-tmpfs-"));
  const mount = join(parent, "fs");
  mkdirSync(mount);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKb}k,mode=0700`, "tmpfs", mount], {
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    return {
      skip: `cannot mount a tmpfs here (${String((error as { stderr?: unknown }).stderr ?? error).trim() || "mount failed"})`,
    };
  }
  // Unmounted before the directory is removed, so a read-only mount never blocks the cleanup.
  t.after(() => {
    execFileSync("umount", ["-l", mount]);
    rmSync(parent, { recursive: true, force: true });
  });
  return { dir: mount };
}

/** Remounts a tmpfs from `tmpfs()` read-only: even root gets EROFS there. */
export function remountReadOnly(dir: string): void {
  execFileSync("mount", ["-o", "remount,ro", dir]);
}
