#!/usr/bin/env bash
# Compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) for translation units that a
# sanitizer does not instrument, or instruments only in part: the harness's
# bookkeeping (RACELAB_HARNESS_PATH) and the interposer (RACELAB_UNINSTRUMENTED),
# both in sanitizers/Sanitizers.cmake.
#
# Such a unit emits its own copy of every inline function and template it uses
# (std::string::_M_assign, std::vector<T>::push_back, ...), as weak symbols.
# A store's units emit the same functions, instrumented, and the linker keeps
# one copy of each name: were it the uninstrumented one, a race in the store's
# own call of it would go unseen. So after compiling such a unit, this renames
# its weak C++ functions and vtables with the suffix ".uninstrumented" (a clone
# suffix, which demanglers show as "[clone .uninstrumented]"): the unit keeps
# its copies to itself, and every other unit links its own. Data (inline
# variables, function-local statics, type_info) keeps its name, so there is
# still one of each.
#
# Units without the marker -DRACELAB_OWN_INLINE_COPIES=1 are compiled as they
# are. Test: tests/sanitizers (an inline function shared with the harness stays
# instrumented in the store).
set -euo pipefail

"$@"

marked=0
object=""
previous=""
for arg in "$@"; do
  [[ "$arg" == "-DRACELAB_OWN_INLINE_COPIES=1" ]] && marked=1
  [[ "$previous" == "-o" ]] && object="$arg"
  previous="$arg"
done
[[ "$marked" == 1 && -n "$object" ]] || exit 0

renames="$object.renames"
nm --defined-only -P "$object" |
  awk '($2 == "W" && $1 ~ /^_Z/) || ($2 == "V" && $1 ~ /^_ZT[VTC]/) {
         print $1, $1 ".uninstrumented"
       }' | sort -u >"$renames"
if [[ -s "$renames" ]]; then
  objcopy --redefine-syms="$renames" "$object"
fi
rm -f "$renames"
