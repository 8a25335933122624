#!/bin/sh
# A collision from warning to Combine to promotion: two command workers change one file, the card offers Combine with
# the dry merge's count, the combined version is approved and promoted, the journal credits both. No model key needed.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
docket() { node "$here/bin/docket.js" "$@"; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/docket-collision-XXXXXX")
export DOCKET_HOME="$dir/home" DOCKET_TMUX_SOCKET="docket-collision-$$"
trap 'tmux -L "$DOCKET_TMUX_SOCKET" kill-server 2>/dev/null || true; docket door stop >/dev/null 2>&1 || true' EXIT
mkdir -p "$DOCKET_HOME" "$dir/repo/src"
cd "$dir/repo"
git init -q
printf 'export const LIMITS = {\n  perMinute: 60,\n  burst: 10,\n  perTenant: false,\n  window: "1m",\n};\n' > src/limits.ts
git add -A && git -c user.name=demo -c user.email=demo@example.invalid commit -qm "limits"

say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { say "docket $*"; docket "$@"; }

# Each worker edits one line of src/limits.ts in its own worktree, then publishes through `docket worker done`.
worker_cmd() { # <line> <new text> <summary>
  printf "sed -i '%ss/.*/%s/' src/limits.ts && printf 'Changed src/limits.ts.\\\\n' | node '%s/bin/docket.js' worker done --outcome completed --summary '%s' && sleep 600" "$1" "$2" "$here" "$3"
}
run spawn --agent command --yes --cmd "$(worker_cmd 2 '  perMinute: 120,' 'raised the per-minute limit')" "Raise the per-minute limit"
run spawn --agent command --yes --cmd "$(worker_cmd 4 '  perTenant: true,' 'limits are per tenant')" "Make the limits per tenant"

deadline=$(( $(date +%s) + 60 ))
until docket ls --json | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>process.exit(JSON.parse(s).workers.filter((w)=>w.state==="ready").length===2?0:1))'; do
  [ "$(date +%s)" -lt "$deadline" ] || { echo "the two workers did not publish within 60 s (docket peek w1)" >&2; exit 1; }
  sleep 1
done

run verdict w1                      # adjacent w2 on src/limits.ts, and: Combine with w2 · … · merges clean, 1 file
run combine w1 w2                   # git merge-tree over the shared base; no worktree, index or checkout touched
run verdict combined:w1+w2:1
run promote combined:w1+w2:1 --approve --yes
run journal
say "cat src/limits.ts"; cat src/limits.ts
printf '\nLook around: cd %s && DOCKET_HOME=%s docket log\n' "$dir/repo" "$DOCKET_HOME"
