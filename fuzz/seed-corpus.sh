#!/usr/bin/env bash
# Seed fuzz/corpus/<target>/ from ../shared/conformance (the corpus itself is gitignored).
#
#   fuzz/seed-corpus.sh [CONFORMANCE_DIR]    default: <repo>/../shared/conformance
#
# Needs jq. Re-running replaces the seed files (named seed-*) and keeps whatever the fuzzer
# added to the corpus.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
conf="${1:-$here/../../shared/conformance}"
corpus="$here/corpus"
if [ ! -d "$conf/hashline/cases" ]; then
  echo "error: conformance data not found at $conf" >&2
  exit 1
fi
command -v jq >/dev/null || { echo "error: jq is required" >&2; exit 1; }

targets=(hashline_parse hashline_apply hash_json_request hash_json_structured
  lineid_json_request lineid_json_structured anchors apply_patch_parse)
for t in "${targets[@]}"; do
  mkdir -p "$corpus/$t"
  rm -f "$corpus/$t"/seed-*
done

# The hashline engine's input separator (see fuzz/src/apply.rs): two 0xFF bytes.
sep() { printf '\377\377'; }

# 1. hashline_parse: every patch as written, and with its placeholders filled in.
# 4. hashline_apply: FLAGS BEFORE SEP [SNAPSHOT SEP ...] PATCH, flags from meta.json.
for case in "$conf"/hashline/cases/*/; do
  name="$(basename "$case")"
  [ -f "$case/patch.txt" ] || continue
  cp "$case/patch.txt" "$corpus/hashline_parse/seed-$name"
  sed -e 's/{TAG[^}]*}/1A2B/g' -e 's#{CWD}#/work#g' "$case/patch.txt" \
    >"$corpus/hashline_parse/seed-$name-tagged"

  meta="$case/meta.json"
  flags=$(jq -r '
    (if .file_exists == false then 0 else 1 end)
    + (if .block_resolver == "none" then 0
       elif .block_resolver == "null" then 16
       else 8 end)
    + (if (.tag | type) == "object" then ((.tag.snapshot + 1) * 32) else 0 end)' "$meta")
  before="$case/before.txt"
  if [ ! -f "$before" ] && [ -d "$case/before" ]; then
    before="$(find "$case/before" -type f | sort | head -n 1)"
  fi
  snapdir="$case/snapshots"
  if [ -d "$snapdir" ] && [ -z "$(find "$snapdir" -maxdepth 1 -type f -print -quit)" ]; then
    snapdir="$(find "$snapdir" -mindepth 1 -maxdepth 1 -type d | sort | head -n 1)"
  fi
  {
    printf "\\$(printf '%03o' "$flags")"
    if [ -n "$before" ] && [ -f "$before" ]; then cat "$before"; fi
    sep
    if [ -d "$snapdir" ]; then
      for snap in $(find "$snapdir" -maxdepth 1 -type f -name '*.txt' | sort); do
        cat "$snap"
        sep
      done
    fi
    cat "$case/patch.txt"
  } >"$corpus/hashline_apply/seed-$name"
done

# 2. hash_json_request and 3. lineid_json_request: the requests as sent.
for req in "$conf"/hash-json/cases/*/request.json; do
  cp "$req" "$corpus/hash_json_request/seed-$(basename "$(dirname "$req")")"
done
for req in "$conf"/lineid-json/cases/*/request.json; do
  cp "$req" "$corpus/lineid_json_request/seed-$(basename "$(dirname "$req")")"
done

# 5. anchors: every anchor string of the JSON requests, and the small vector texts and reads.
n=0
for req in "$conf"/hash-json/cases/*/request.json "$conf"/lineid-json/cases/*/request.json; do
  while IFS= read -r anchor; do
    n=$((n + 1))
    printf '%s' "$anchor" >"$corpus/anchors/seed-anchor-$n"
  done < <(jq -r '.. | objects | (.pos?, .start?, .end?) | strings' "$req" 2>/dev/null || true)
done
for f in "$conf"/hash-json/vectors/*.txt "$conf"/lineid-json/vectors/*.txt \
  "$conf"/lineid-json/vectors/*.read "$conf"/lineid-json/vectors/read-hook/*; do
  [ -f "$f" ] || continue
  # Keep seeds small: libFuzzer's default max_len follows the largest seed.
  if [ "$(wc -c <"$f")" -le 4096 ]; then
    cp "$f" "$corpus/anchors/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
  fi
done

# apply_patch_parse: every V4A patch of the apply-patch corpus (at most 4 KiB).
for case in "$conf"/apply-patch/cases/*/; do
  f="$case/patch.txt"
  if [ -f "$f" ] && [ "$(wc -c <"$f")" -le 4096 ]; then
    cp "$f" "$corpus/apply_patch_parse/seed-$(basename "$case")"
  fi
done

# The structured targets read their bytes as choices, not as JSON: they start empty.
for t in "${targets[@]}"; do
  printf '%-24s %5d seeds\n' "$t" "$(find "$corpus/$t" -name 'seed-*' | wc -l)"
done
