# Sourced by the conformance runners (run_conformance.sh,
# run_differential.sh): which programs a run covers, and running a function
# on each of them, a few at once.

# Sets the array `names`: the names given, else every <name>.cc of `srcdir`.
#   choose_programs <srcdir> [name...]
choose_programs() {
  local srcdir=$1 source
  shift
  if [[ $# -gt 0 ]]; then
    names=("$@")
  else
    names=()
    for source in "$srcdir"/*.cc; do names+=("$(basename "$source" .cc)"); done
  fi
}

# Runs `<function> <name>` for every name of `names`, at most `jobs` at
# once, and returns when all have ended.
#   run_each <jobs> <function>
run_each() {
  local jobs=$1 function=$2 running=0 name
  for name in "${names[@]}"; do
    "$function" "$name" &
    running=$((running + 1))
    if [[ $running -ge $jobs ]]; then
      wait -n
      running=$((running - 1))
    fi
  done
  wait
}
