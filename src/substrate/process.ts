// Whether a local process still runs: how a start that died part-way is told from one that is merely slow.
// Signal 0 checks without signalling; EPERM means the process exists but belongs to someone else.

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
