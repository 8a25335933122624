// The network policy's pure rules: modes only narrow, host[:port] patterns parse and match exactly, the hosts a launch
// needs come from its agent's model API, the config keeps `allow` to the user, and the relay plan is a pure function.

import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveConfig } from "../../src/domain/config.js";
import {
  egressVerdict,
  launchAllowList,
  matchesAllow,
  narrowNetwork,
  neededUrls,
  parseAllowPattern,
  patternText,
} from "../../src/domain/network-policy.js";
import { egressEnv, parseEgressHello, relayArgv } from "../../src/domain/workers/egress-plan.js";
import { bwrapArgs, planMounts, type SandboxInput } from "../../src/domain/workers/sandbox-plan.js";
import { parseKindFile } from "../../src/domain/workers/kinds.js";

test("modes narrow: none < allow < open, whichever side asks", () => {
  assert.equal(narrowNetwork("open", "allow"), "allow");
  assert.equal(narrowNetwork("allow", "open"), "allow");
  assert.equal(narrowNetwork("allow", "none"), "none");
  assert.equal(narrowNetwork("open", "open"), "open");
});

test("allow patterns: host, host:port, *.domain[:port]; anything else is refused", () => {
  assert.deepEqual(parseAllowPattern("GitHub.com"), { host: "github.com", wildcard: false });
  assert.deepEqual(parseAllowPattern("registry.npmjs.org:443"), {
    host: "registry.npmjs.org",
    wildcard: false,
    port: 443,
  });
  assert.deepEqual(parseAllowPattern("*.example.com:8443"), { host: "example.com", wildcard: true, port: 8443 });
  assert.deepEqual(parseAllowPattern("127.0.0.1:8080"), { host: "127.0.0.1", wildcard: false, port: 8080 });
  for (const bad of [
    "",
    "*",
    "*.1.2.3.4",
    "http://x.com",
    "x.com:0",
    "x.com:70000",
    "a b",
    "-x.com",
    "x.*.com",
    "x.com:",
  ])
    assert.equal(parseAllowPattern(bad), undefined, bad);
});

test("matching: exact host, subdomains only for *., the port when one is named", () => {
  const p = (s: string) => parseAllowPattern(s)!;
  assert.ok(matchesAllow(p("github.com"), "github.com", 443));
  assert.ok(matchesAllow(p("github.com"), "github.com", 22));
  assert.ok(!matchesAllow(p("github.com"), "api.github.com", 443));
  assert.ok(!matchesAllow(p("github.com"), "evilgithub.com", 443));
  assert.ok(matchesAllow(p("*.github.com"), "api.github.com", 443));
  assert.ok(!matchesAllow(p("*.github.com"), "github.com", 443));
  assert.ok(!matchesAllow(p("*.github.com"), "api.github.com.evil.net", 443));
  assert.ok(!matchesAllow(p("github.com:443"), "github.com", 80));
  // The verdict normalises the asked name (case, trailing dot) and masks one that is no host name.
  assert.deepEqual(egressVerdict([p("github.com:443")], "GitHub.COM.", 443), { allowed: true, host: "github.com" });
  const odd = egressVerdict([p("github.com")], "git\x1b[31mhub", 443);
  assert.equal(odd.allowed, false);
  assert.equal(odd.host, "git??31mhub");
});

test("the hosts a launch needs: Claude's base URL or api.anthropic.com, Codex's and pi's providers, nothing for a command", () => {
  assert.deepEqual(neededUrls({ agent: "claude", env: {} }), ["https://api.anthropic.com"]);
  assert.deepEqual(neededUrls({ agent: "claude", env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:4100" } }), [
    "http://127.0.0.1:4100",
  ]);
  assert.deepEqual(
    neededUrls({
      agent: "codex",
      env: {},
      codexArgs: ["-c", 'model_providers.s={name="s",base_url="http://127.0.0.1:5100/v1",wire_api="responses"}'],
    }),
    ["https://api.openai.com/v1", "http://127.0.0.1:5100/v1"],
  );
  assert.deepEqual(neededUrls({ agent: "pi", env: {}, piBaseUrls: ["https://llm.internal:8443/v1"] }), [
    "https://llm.internal:8443/v1",
  ]);
  assert.deepEqual(neededUrls({ agent: "command", env: { ANTHROPIC_BASE_URL: "http://x" } }), []);
  const list = launchAllowList({ agent: "claude", env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:4100" } }, [
    "github.com:443",
    "127.0.0.1:4100",
    "not a host",
  ]);
  assert.deepEqual(list.map(patternText), ["127.0.0.1:4100", "github.com:443"]);
});

test("config: sandbox.network a mode or {mode, allow}; a project may narrow, never widen, and never add hosts", () => {
  const user = { sandbox: { network: { mode: "allow", allow: ["github.com:443"] } } };
  const narrowed = resolveConfig(user, { sandbox: { network: "none" } });
  assert.equal(narrowed.config.sandbox.network, "none");
  assert.deepEqual(narrowed.config.sandbox.allow, ["github.com:443"]);
  const widened = resolveConfig(user, {
    sandbox: { network: { mode: "open", allow: ["evil.example"] }, allow: ["x.io"] },
  });
  assert.equal(widened.config.sandbox.network, "allow");
  assert.deepEqual(widened.config.sandbox.allow, ["github.com:443"]);
  assert.equal(widened.warnings.length, 3, widened.warnings.join("\n"));
  assert.match(widened.warnings.join("\n"), /"open" would widen the workers' network; only your user config can/);
  assert.equal(resolveConfig(undefined, undefined).config.sandbox.network, "allow", "allow is the default");
  assert.equal(resolveConfig({ sandbox: { network: "default" } }, undefined).config.sandbox.network, "open");
  const bad = resolveConfig({ sandbox: { allow: ["ok.io", "http://no"] } }, undefined);
  assert.deepEqual(bad.config.sandbox.allow, []);
  assert.match(bad.warnings[0]!, /"http:\/\/no" is not host, host:port or \*\.domain\[:port\]; ignored/);
});

test("the relay plan is pure: argv and variables name only the socket and port, the identity line round-trips", () => {
  assert.deepEqual(relayArgv({ node: "/n", relay: "/r.js", socket: "/d/egress.sock" }), [
    "/n",
    "--max-semi-space-size=1",
    "/r.js",
    "/d/egress.sock",
    "3128",
    "--",
  ]);
  const env = egressEnv(3128);
  assert.equal(env.HTTPS_PROXY, "http://127.0.0.1:3128");
  assert.equal(env.NODE_USE_ENV_PROXY, "1");
  assert.equal(env.NO_PROXY, "");
  assert.deepEqual(parseEgressHello('{"worker":"w1","generation":2,"token":"t"}'), {
    worker: "w1",
    generation: 2,
    token: "t",
  });
  assert.equal(parseEgressHello('{"worker":"w1","generation":"2","token":"t"}'), undefined);
  assert.equal(parseEgressHello("CONNECT x:443 HTTP/1.1"), undefined);
});

test("the sandbox: its own network namespace unless open; the egress socket bound only with allow; session secrets hidden", () => {
  const input: SandboxInput = {
    network: "allow",
    egressSocket: "/h/door/egress.sock",
    readOnly: false,
    checkout: "/src/app",
    workspace: "/h/fleet/w1/workspace",
    docket: { home: "/h", doorDir: "/h/door", files: [] },
    scratch: "/h/fleet/w1/scratch",
    agentWritable: [],
    agentReadOnly: [],
    exposeReadOnly: [],
    homes: ["/u"],
    hideExtra: [],
  };
  const paths = (i: SandboxInput) => planMounts(i).map((m) => `${m.kind} ${m.path}`);
  assert.ok(paths(input).includes("ro /h/door/egress.sock"));
  assert.ok(!paths({ ...input, network: "none" }).includes("ro /h/door/egress.sock"));
  for (const secret of [".Xauthority", ".ICEauthority", ".dbus"])
    assert.ok(paths(input).includes(`hide /u/${secret}`), secret);
  const args = (network: SandboxInput["network"]) =>
    bwrapArgs(planMounts({ ...input, network }), () => "dir", { network });
  assert.ok(args("allow").includes("--unshare-net"));
  assert.ok(args("none").includes("--unshare-net"));
  assert.ok(!args("open").includes("--unshare-net"));
});

test("for one command: DOCKET_NETWORK sets the mode and DOCKET_NETWORK_ALLOW adds hosts; a project still only narrows", () => {
  const user = { sandbox: { allow: ["github.com:443"] } };
  const one = resolveConfig(user, undefined, { DOCKET_NETWORK_ALLOW: "pypi.org:443, *.pythonhosted.org:443" });
  assert.deepEqual(one.config.sandbox.allow, ["github.com:443", "pypi.org:443", "*.pythonhosted.org:443"]);
  assert.equal(resolveConfig(user, undefined, { DOCKET_NETWORK: "open" }).config.sandbox.network, "open");
  assert.equal(
    resolveConfig(user, { sandbox: { network: "none" } }, { DOCKET_NETWORK: "open" }).config.sandbox.network,
    "none",
  );
  const bad = resolveConfig(user, undefined, { DOCKET_NETWORK: "wide", DOCKET_NETWORK_ALLOW: "a b" });
  assert.equal(bad.config.sandbox.network, "allow");
  assert.deepEqual(bad.config.sandbox.allow, ["github.com:443"]);
  assert.equal(bad.warnings.length, 2);
});

test("a kind file may name its network; a value that is no mode makes the file malformed", () => {
  const kind = (v: string) => parseKindFile(`---\nname: k\nnetwork: ${v}\n---\n`, "user", "/k.md");
  assert.equal(kind("none").kind?.network, "none");
  assert.equal(kind("allow").kind?.network, "allow");
  assert.match(kind("wide").error ?? "", /network must be one of none, allow, open, got "wide"/);
  assert.equal(parseKindFile("---\nname: k\n---\n", "user", "/k.md").kind?.network, undefined);
});
