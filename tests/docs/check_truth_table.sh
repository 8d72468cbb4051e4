#!/bin/sh
# docs/truth-table.md against the catalog: the table and legend printed by
# `racelab list --truth-table` must be the document's text from its first
# table row to its end, byte for byte.
# Usage: check_truth_table.sh RACELAB_BINARY DOC
set -eu
racelab=$1
doc=$2
generated=$(mktemp)
documented=$(mktemp)
trap 'rm -f "$generated" "$documented"' EXIT
"$racelab" list --truth-table >"$generated"
sed -n '/^|/,$p' "$doc" >"$documented"
if ! diff -u --label "$doc" --label "racelab list --truth-table" \
    "$documented" "$generated"; then
  echo "$doc is out of date: regenerate it with racelab list --truth-table" >&2
  exit 1
fi
