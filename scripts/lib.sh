# Shared by scripts/test and scripts/demo: dependency install and build.

# What the build needs (scripts/packages.txt, shared with the Kubernetes
# image), then what the tests and plots use besides.
mapfile -t MPSIM_PACKAGES < <(grep -v '^#' "$(dirname "${BASH_SOURCE[0]}")/packages.txt" | grep .)
MPSIM_PACKAGES+=(python3-matplotlib clang-format)

# Installs the Debian packages that are not installed yet (needs root).
mpsim_install_deps() {
  local missing=()
  for p in "${MPSIM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then
    echo "error: missing packages ${missing[*]}; run as root or install them with apt-get" >&2
    return 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# mpsim_configure DIR BUILD_TYPE [CMAKE_ARGS...]: configures a Ninja build.
# With MPSIM_CI=1 (.ci/run) warnings are errors and formatting is a test:
# a user's compiler or clang-format version must not fail their build.
mpsim_configure() {
  local dir=$1 type=$2
  shift 2
  local ci=OFF
  [ "${MPSIM_CI:-0}" = 1 ] && ci=ON
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DMPSIM_CI="$ci" "$@" >/dev/null
}

# mpsim_build DIR BUILD_TYPE [CMAKE_ARGS...]: configures once, builds.
mpsim_build() {
  mpsim_configure "$@"
  cmake --build "$1" -j "$(nproc)"
}

# mpsim_build_targets DIR BUILD_TYPE TARGET...: configures once, builds only
# these targets. The test binary is a third of a fresh build (scripts/demo
# from a fresh clone: 6 min 47 s, against 10 min 16 s for everything, on 2
# cores), and the demo and the benchmarks do not run it.
mpsim_build_targets() {
  mpsim_configure "$1" "$2"
  cmake --build "$1" -j "$(nproc)" --target "${@:3}"
}

# Prints a Python interpreter that can import matplotlib, or fails with a
# message saying what was tried. $MPSIM_PYTHON, when set, is the only one
# tried; else /usr/bin/python3 (where Debian's python3-matplotlib lives) and
# then python3 on PATH (often a pyenv shim without it). app/plot.cc searches
# the same way for `mpsim run --plot`: keep the two in step.
mpsim_python() {
  local py candidates=()
  if [ -n "${MPSIM_PYTHON:-}" ]; then
    candidates=("$MPSIM_PYTHON")
  else
    candidates=(/usr/bin/python3 "$(command -v python3 || true)")
  fi
  for py in "${candidates[@]}"; do
    [ -n "$py" ] && [ -x "$py" ] && "$py" -c 'import matplotlib' 2>/dev/null && { echo "$py"; return 0; }
  done
  echo "error: no Python interpreter with matplotlib (tried ${candidates[*]}); install it with apt-get install python3-matplotlib, or set MPSIM_PYTHON" >&2
  return 1
}

# mpsim_scale_scenario PROVIDER N FILE: the benchmark scenario, a scale-up of
# one pool from 0 to N replicas on PROVIDER with its defaults, as
# scripts/bench, bench-instructions and bench-cache all run it. Without
# etcd's request limit (apiServer.maxObjectBytes 0): at its default a pool
# stops growing near 6,000 (vmss) to 13,000 (test) replicas
# (docs/reference/capi-core.md §1.15), and the budget times whole scale-ups.
mpsim_scale_scenario() {
  cat >"$3" <<YAML
apiVersion: mpsim/v1
kind: Scenario
metadata: {name: bench-$1-$2}
spec:
  horizon: 2h
  apiServer: {maxObjectBytes: 0}
  machinePools:
    - {name: mp-0, replicas: 0, provider: {$1: {}}}
  events:
    - {at: 0s, scale: {pool: mp-0, replicas: $2}}
YAML
}

# mpsim_many_pools_scenario PROVIDER POOLS REPLICAS FILE: the many-pools
# shape of issue 54, POOLS pools each scaled from 0 to REPLICAS at once on
# PROVIDER, without etcd's request limit as mpsim_scale_scenario.
mpsim_many_pools_scenario() {
  {
    printf 'apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: bench-%s-%sx%s}\n' "$1" "$2" "$3"
    printf 'spec:\n  horizon: 2h\n  apiServer: {maxObjectBytes: 0}\n  machinePools:\n'
    for ((i = 0; i < $2; i++)); do printf '    - {name: mp-%d, replicas: 0, provider: {%s: {}}}\n' "$i" "$1"; done
    printf '  events:\n'
    for ((i = 0; i < $2; i++)); do printf '    - {at: 0s, scale: {pool: mp-%d, replicas: %d}}\n' "$i" "$3"; done
  } >"$4"
}

# mpsim_summary_number SUMMARY_JSON FIELD: a top-level number of summary.json
# (events_processed, end_time_s), bare whether the file quotes it (a 64-bit
# count) or not.
mpsim_summary_number() {
  grep -o "\"$2\": *\"*[0-9.]*" "$1" | grep -o '[0-9.]*$'
}

# mpsim_need_valgrind SCRIPT TOOL ANNOTATOR: fails, saying what to install,
# unless valgrind and TOOL's annotator are there (the counting benchmarks
# need them; scripts/test does not install valgrind).
mpsim_need_valgrind() {
  if ! command -v valgrind >/dev/null || ! command -v "$3" >/dev/null; then
    echo "error: $1 needs valgrind's $2 (apt-get install valgrind)" >&2
    return 1
  fi
}
