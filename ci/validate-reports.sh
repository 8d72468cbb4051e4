#!/usr/bin/env bash
# Validates the machine-readable reports of a gate run with a real JSON Schema
# validator (ajv, draft 2020-12, formats checked):
#   DIR/results.json   against reports/results.schema.json
#   DIR/results.sarif  against reports/schemas/sarif-schema-2.1.0.json (the
#                      official SARIF 2.1.0 schema, vendored; see reports/README.md)
# ajv-cli and ajv-formats are installed once, pinned, with npm into
# $RACELAB_TOOLS_DIR (default: build/tools), with npm's cache beside them, so
# later runs need no network; concurrent runs take turns (flock), npm retries
# a failed fetch, and a stamp marks a complete install.
#
# Usage: ci/validate-reports.sh DIR
# Exit: 0 valid, 1 invalid or the validator could not be installed (node and
# npm come with ci/install-deps.sh; the reason is printed), 2 usage.
set -euo pipefail

if [[ $# -ne 1 || ! -d $1 ]]; then
  echo "usage: $0 DIR (a folder with results.json and results.sarif)" >&2
  exit 2
fi
dir=$1
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=${RACELAB_TOOLS_DIR:-$src/build/tools}
ajv_cli_version=5.0.0
ajv_formats_version=3.0.1
stamp_text="ajv-cli@$ajv_cli_version ajv-formats@$ajv_formats_version"

for tool in node npm flock; do
  if ! command -v "$tool" >/dev/null; then
    echo "validate-reports: FAIL: $tool is not installed (bash ci/install-deps.sh installs it)" >&2
    exit 1
  fi
done

ajv=$tools/node_modules/.bin/ajv
stamp=$tools/.installed
mkdir -p "$tools"
(
  flock 9
  if [[ ! -x $ajv || ! -d $tools/node_modules/ajv-formats || $(cat "$stamp" 2>/dev/null) != "$stamp_text" ]]; then
    rm -f "$stamp"
    echo "validate-reports: installing $stamp_text into $tools" >&2
    ok=0
    for attempt in 1 2 3; do
      # An attempt that stalls (a registry that stops answering) is ended
      # and tried again, instead of holding the test until its time limit.
      if npm_log=$(timeout -k 10 300 npm install --prefix "$tools" --cache "$tools/.npm-cache" --prefer-offline \
                     --no-audit --no-fund --fetch-retries=4 --loglevel=error \
                     "ajv-cli@$ajv_cli_version" "ajv-formats@$ajv_formats_version" 2>&1); then
        ok=1
        break
      fi
      echo "validate-reports: npm install failed (attempt $attempt of 3)" >&2
      sleep $((attempt * 5))
    done
    if [[ $ok -ne 1 ]]; then
      echo "$npm_log" >&2
      echo "validate-reports: FAIL: could not install $stamp_text from the npm registry" >&2
      exit 1
    fi
    echo "$stamp_text" >"$stamp"
  fi
) 9>"$tools/.install.lock"

status=0
validate() {  # label schema data
  local out
  # ajv-cli resolves -c plugins from the working directory.
  if out=$(cd "$tools" && "$ajv" validate --spec=draft2020 --strict=false --all-errors \
             --errors=text -c ajv-formats -s "$2" -d "$3" 2>&1); then
    echo "validate-reports: $1: valid against ${2#"$src"/} (ajv-cli $ajv_cli_version)"
  else
    echo "validate-reports: $1: INVALID against ${2#"$src"/}:" >&2
    echo "${out//"$3"/$1}" >&2
    status=1
  fi
}
validate "$dir/results.json" "$src/reports/results.schema.json" "$(realpath "$dir/results.json")"
# ajv-cli picks a parser by file extension and knows no .sarif: validate a
# .json copy.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$dir/results.sarif" "$tmp/results.sarif.json"
validate "$dir/results.sarif" "$src/reports/schemas/sarif-schema-2.1.0.json" "$tmp/results.sarif.json"
exit $status
