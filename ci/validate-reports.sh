#!/usr/bin/env bash
# Validates the machine-readable reports of a gate run with a real JSON Schema
# validator (ajv, draft 2020-12, formats checked):
#   DIR/results.json   against reports/results.schema.json
#   DIR/results.sarif  against reports/schemas/sarif-schema-2.1.0.json (the
#                      official SARIF 2.1.0 schema, vendored; see reports/README.md)
# ajv-cli and ajv-formats are installed once, pinned, with npm into
# $RACELAB_TOOLS_DIR (default: build/tools).
#
# Usage: ci/validate-reports.sh DIR
# Exit: 0 valid, 1 invalid, 2 usage, 77 the validator cannot be had (no node or
# npm, or the npm registry is unreachable): the reason is printed.
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

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "validate-reports: SKIP: node or npm is not installed (bash ci/install-deps.sh)" >&2
  exit 77
fi

ajv=$tools/node_modules/.bin/ajv
if [[ ! -x $ajv || ! -d $tools/node_modules/ajv-formats ]]; then
  mkdir -p "$tools"
  echo "validate-reports: installing ajv-cli@$ajv_cli_version ajv-formats@$ajv_formats_version into $tools" >&2
  if ! npm_log=$(npm install --prefix "$tools" --no-audit --no-fund --loglevel=error \
                   "ajv-cli@$ajv_cli_version" "ajv-formats@$ajv_formats_version" 2>&1); then
    echo "$npm_log" >&2
    if grep -qiE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|network|proxy' <<<"$npm_log"; then
      echo "validate-reports: SKIP: the npm registry is unreachable" >&2
      exit 77
    fi
    echo "validate-reports: npm install failed" >&2
    exit 1
  fi
fi

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
