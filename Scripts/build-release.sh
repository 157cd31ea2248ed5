#!/usr/bin/env bash
# Builds the release `knoblink` as it is run and measured, and prints its path:
# - the standard library linked statically: one binary, and about 3 MB less resident memory than
#   loading the Swift runtime's shared libraries (Docs/BENCHMARKS.md, "Memory");
# - linked by the toolchain's lld with packed relative relocations (`-z pack-relative-relocs`,
#   glibc 2.36 and later): the 42,000 relocations of a position-independent binary this size took
#   1 MB as RELA entries, which the loader read at every start, and take 8 KB as RELR
#   (Docs/BENCHMARKS.md, "A smaller start"). The binary stays position-independent.
# - the C++ library that the Swift runtime is written against (libstdc++) linked statically too:
#   loaded as a shared library, its relocations and locale set-up kept 1 MiB of it resident in every
#   process, where the few parts the runtime calls take 90 KB of the binary (Docs/BENCHMARKS.md,
#   "The server's libraries"). The toolchain's driver names `-lstdc++` itself, after anything
#   passed here, so the archive is put first on the search path, in a directory of its own
#   (the linker takes, directory by directory, the first `libstdc++.so` or `libstdc++.a` it finds).
#   Without the archive (package libstdc++-12-dev), the shared library is linked as before.
# The linker's warning about `mktemp` comes from FoundationEssentials' own temporary files;
# KnobLink never calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
archive="$(clang -print-file-name=libstdc++.a 2>/dev/null || true)"
if [ -f "$archive" ]; then
    mkdir -p .build/static-libstdc++
    ln -sf "$archive" .build/static-libstdc++/libstdc++.a
    flags+=(-Xswiftc "-L$PWD/.build/static-libstdc++")
else
    echo "build-release: no libstdc++.a (apt-get install libstdc++-12-dev): linking the shared libstdc++" >&2
fi
swift build "${flags[@]}" --product knoblink >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/knoblink"
