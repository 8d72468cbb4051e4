#!/usr/bin/env bash
# Which definition a program linked with racelab::runtime got for each call
# racelab interposes (the extern "C" functions of racelab_sync's interpose*.o):
#   check_symbol_owners.sh <libracelab_sync.a> <program> [own_name...]
# Each own_name must be the program's own global (a data object), every other
# interposed name racelab's function: not the sanitizer's interceptor
# (__interceptor_<name>, whose weak alias the name would be), and the one the
# program exports to shared libraries where it exports the name. Prints one
# line per problem and a summary; exits 1 on any problem, 2 on bad input.
set -uo pipefail

if [[ $# -lt 2 || ! -f $1 || ! -f $2 ]]; then
  echo "usage: $0 <libracelab_sync.a> <program> [own_name...]" >&2
  exit 2
fi
archive=$1
program=$2
shift 2
declare -A own=()
for name in "$@"; do own[$name]=1; done

# The interposed names: C functions (no leading _, not mangled) defined by
# the interposer's objects.
mapfile -t interposed < <(nm --defined-only "$archive" 2>/dev/null |
  awk '/^interpose[a-z_]*\.cc\.o:$/ { in_interposer = 1; next }
       /\.o:$/ { in_interposer = 0; next }
       in_interposer && ($2 == "T" || $2 == "W") && $3 ~ /^[a-z]/ &&
         $3 !~ /anchor$/ { print $3 }' | sort -u)
if [[ ${#interposed[@]} -eq 0 ]]; then
  echo "no interposed function found in $archive" >&2
  exit 2
fi
# (A lookup, not `printf | grep -q`: under pipefail grep's early exit
# would fail the pipe with SIGPIPE whenever printf had not yet finished.)
declare -A is_interposed=()
for name in "${interposed[@]}"; do is_interposed[$name]=1; done
for name in "${!own[@]}"; do
  if [[ -z ${is_interposed[$name]:-} ]]; then
    echo "$name is not an interposed call" >&2
    exit 2
  fi
done

declare -A type=() address=() exported=()
while read -r value kind name; do
  type[$name]=$kind
  address[$name]=$value
done < <(nm --defined-only "$program" | awk 'NF == 3')
while read -r value kind name; do
  exported[${name%%@*}]=$value
done < <(nm -D --defined-only "$program" | awk 'NF == 3')

problems=0
problem() {
  echo "$1"
  problems=$((problems + 1))
}
racelab_count=0
exported_count=0
for name in "${interposed[@]}"; do
  kind=${type[$name]:-}
  if [[ -n ${own[$name]:-} ]]; then
    [[ $kind =~ ^[BbDdC]$ ]] ||
      problem "$name: the program's own global expected, got '${kind:-none}'"
    continue
  fi
  if [[ ! $kind =~ ^[TtWw]$ ]]; then
    problem "$name: racelab's function expected, got '${kind:-none}'"
    continue
  fi
  interceptor=${address[__interceptor_$name]:-}
  if [[ -n $interceptor && $interceptor == "${address[$name]}" ]]; then
    problem "$name: the sanitizer's interceptor won over racelab's"
    continue
  fi
  racelab_count=$((racelab_count + 1))
  if [[ -n ${exported[$name]:-} ]]; then
    exported_count=$((exported_count + 1))
    [[ ${exported[$name]} == "${address[$name]}" ]] ||
      problem "$name: the program exports another definition than its own"
  fi
done
echo "$(basename "$program"): ${#interposed[@]} interposed calls; the program's" \
  "own: ${#own[@]}; racelab's: $racelab_count ($exported_count of them" \
  "exported); problems: $problems"
[[ $problems -eq 0 ]]
