#!/usr/bin/env bash
# End to end through the CLI: read a file with anchors, apply a hashline patch written against
# those anchors, show the result, then send the same (now stale) patch again and watch it refused;
# last, a structural rewrite previewed with ast-edit and written by resolve apply.
# Works on a copy in a temp dir; the repository is not modified.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/demo/greet.ts" "$work/"
echo "== building hashline (the first build compiles every dependency: several minutes on two cores)"
cargo build --package hashline --manifest-path "$here/../Cargo.toml"
bin="$(cargo metadata --format-version 1 --no-deps --manifest-path "$here/../Cargo.toml" \
  | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/debug/hashline"
hl() { "$bin" --root "$work" --state "$work/.state" "$@"; }

echo "== hashline read greet.ts"
hl read greet.ts | tee "$work/read.txt"
header="$(head -n 1 "$work/read.txt")"
{ echo "$header"; cat "$here/demo/body.hl"; } > "$work/patch.hl"
echo
echo "== the patch"
cat "$work/patch.hl"
echo
echo "== hashline edit patch.hl"
hl edit "$work/patch.hl"
echo
echo "== greet.ts now"
cat "$work/greet.ts"
echo
echo "== the same patch again (its tag is stale; the edit is recovered or refused, never misplaced)"
hl edit "$work/patch.hl" || echo "(exit $?: refused, file unchanged)"
echo
echo "== hashline ast-edit: preview a structural rewrite (nothing written yet)"
hl ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' greet.ts
echo
echo "== hashline resolve apply"
hl resolve apply
tail -n 2 "$work/greet.ts"
