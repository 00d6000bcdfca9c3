#!/usr/bin/env bash
# Checks that a shared libcollectives exports exactly the public API.
# Usage: check_exports.sh <libcollectives.so> <include-dir>
#  1. every function a public header declares (a one-line, non-template, non-inline declaration
#     `... name(...);` in namespace scope, the style of include/collectives) and the library
#     defines is exported; a missing COLLECTIVES_EXPORT leaves it hidden and fails here;
#  2. nothing else of namespace collectives is exported: no internal function leaks into the ABI;
#  3. collectives::error's typeinfo is exported, so the application catches it by type.
# Template instantiations of std:: and other libraries that the compiler emits as weak symbols
# are not the library's API and are not checked.
set -euo pipefail

so=$1 include_dir=$2

# Names of the functions the public headers declare (not define): the identifier before '(' on a
# line that ends with ');', has a return type before the name, and is not a template's (previous
# line `template <...>`), a statement (`return`, an assignment before the call) or a macro line.
declared=$(find "$include_dir" -name '*.hpp' -exec awk '
  { line = $0; sub(/\/\/.*/, "", line) }
  line ~ /\);[[:space:]]*$/ && line !~ /^[[:space:]]*(return|#|static_assert|using|typedef)/ &&
  prev !~ /^[[:space:]]*template/ && line !~ /^[^(]*=/ && line ~ /^[[:space:]]*[A-Za-z]/ {
    head = line; sub(/\(.*/, "", head)
    # A return type, then the name: `std::memcpy(...);` is a call, not a declaration.
    if (match(head, /[^[:space:]][[:space:]&*]+(operator[^[:space:]]+|[A-Za-z_][A-Za-z0-9_]*)$/)) {
      name = substr(head, RSTART + 1); sub(/^[[:space:]&*]+/, "", name); print name
    }
  }
  { prev = line }' {} + | sort -u)

# Defined functions, each as "<nm type> <demangled name up to its parameter list>".
functions() { nm "$@" --defined-only -C "$so" | awk '{ t = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); print t " " $0 }'; }
exported=$(functions -D)
all=$(functions)

status=0
fail() { echo "check_exports: $*" >&2; status=1; }

# Qualified name without parameters and without the leading "collectives::...::".
base() { sed -e 's/(.*//' -e 's/.*:://'; }

# 1. Declared in a public header, defined in the library: exported.
while read -r type name; do
  short=$(base <<< "$name")
  grep -qxF "$short" <<< "$declared" || continue
  [[ $name == *"(anonymous namespace)"* ]] && continue
  grep -qF " $name" <<< "$exported" || fail "'$name' is declared in a public header but not exported: put COLLECTIVES_EXPORT on its declaration"
done < <(grep -E '^[Tt] collectives::' <<< "$all" | grep -v '<' || true)

# 2. Exported from namespace collectives: declared in a public header (or error's typeinfo/vtable).
while read -r type name; do
  short=$(base <<< "$name")
  grep -qxF "$short" <<< "$declared" || fail "'$name' is exported but no public header declares it: it leaks an internal into the ABI"
done < <(grep -E '^[A-Za-z] collectives::' <<< "$exported" | grep -v '<' || true)

# 3. The exception type the library throws.
grep -qF 'typeinfo for collectives::error' <<< "$exported" || fail "typeinfo for collectives::error is not exported"

if [[ $status -eq 0 ]]; then
  echo "check_exports: $(grep -cE '^[A-Za-z] collectives::' <<< "$exported") functions of namespace collectives exported, $(wc -l <<< "$declared") names declared in $include_dir:"
  grep -E '^[A-Za-z] (collectives::|typeinfo for collectives|vtable for collectives)' <<< "$exported" | sed 's/^/  /'
fi
exit $status
