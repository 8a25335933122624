// Which Node.js a native addon was built for and which one runs it, and the Node.js versions Docket supports: pure
// reading of node's own words (its dlopen error, process.versions), so an ABI mismatch is said, never guessed at.

/** The Node.js versions Docket runs under (package.json's engines). */
export const SUPPORTED_NODE = "^22.12 || ^24";

/** Node's ABI number (process.versions.modules) for each release line it has named. */
const NODE_OF_ABI: Readonly<Record<number, string>> = {
  108: "18",
  115: "20",
  120: "21",
  127: "22",
  131: "23",
  137: "24",
  141: "25",
};

/** `Node 24` for a known ABI, `an unknown Node` otherwise. */
export const nodeOfAbi = (abi: number): string =>
  NODE_OF_ABI[abi] === undefined ? "an unknown Node.js" : `Node ${NODE_OF_ABI[abi]}`;

/** The ABI an addon was built for, from node's dlopen error ("compiled against … NODE_MODULE_VERSION 137"). */
export function builtForAbi(message: string): number | undefined {
  const m = /compiled against a different Node\.js version using\s+NODE_MODULE_VERSION (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** True for a Node.js version (`v22.12.0`, `24.1.0`) within SUPPORTED_NODE. */
export function isSupportedNode(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)\./.exec(version);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return (major === 22 && minor >= 12) || major === 24;
}
