#!/usr/bin/env bash
# Builds the release `knoblink` as it is run and measured, and prints its path:
# - the standard library linked statically: one binary, and about 3 MB less resident memory than
#   loading the Swift runtime's shared libraries (Docs/BENCHMARKS.md, "Memory");
# - linked by the toolchain's lld with packed relative relocations (`-z pack-relative-relocs`,
#   glibc 2.36 and later): the 42,000 relocations of a position-independent binary this size took
#   1 MB as RELA entries, which the loader read at every start, and take 8 KB as RELR
#   (Docs/BENCHMARKS.md, "A smaller start"). The binary stays position-independent.
# The linker's warning about `mktemp` comes from FoundationEssentials' own temporary files;
# KnobLink never calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
swift build "${flags[@]}" --product knoblink >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/knoblink"
