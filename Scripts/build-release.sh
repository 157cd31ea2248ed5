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
# - each function in a section of its own (`-function-sections`), laid out by the linker in the
#   order of Scripts/knoblink.order: the functions that the common commands run (made by
#   Scripts/order-functions.sh), together at the start of the code. The kernel maps a binary's
#   pages 64 KiB at a time around each one touched, so scattered hot functions kept 5.2 MiB of code
#   resident in a server; together they keep 3.0 MiB. `KNOBLINK_ORDER=none` builds without the
#   order (order-functions.sh does, to profile);
# - no symbol of the binary exported (`--no-export-dynamic`, after the toolchain's
#   `-export-dynamic`): nothing loads symbols from it, and the dynamic linker searched its 6,300
#   exported names (0.5 MiB of tables, touched by every library's lookups) before every library's.
# The linker's warning about `mktemp` comes from FoundationEssentials' own temporary files;
# KnobLink never calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
# What changes the objects, and what changes only the link.
compile_flags=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections)
link_flags=(-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic)
if [ "${KNOBLINK_ORDER:-}" != none ]; then
    # Names the binary no longer has are skipped, silently: the list only guides the layout.
    link_flags+=(-Xlinker "--symbol-ordering-file=$PWD/Scripts/knoblink.order" -Xlinker --no-warn-symbol-ordering)
fi
# The toolchain's clang, beside swift, knows which GCC installation the link uses.
archive="$("$(dirname "$(command -v swift)")/clang" -print-file-name=libstdc++.a 2>/dev/null || true)"
if [ -f "$archive" ]; then
    mkdir -p .build/static-libstdc++
    ln -sf "$archive" .build/static-libstdc++/libstdc++.a
    link_flags+=(-Xswiftc "-L$PWD/.build/static-libstdc++")
else
    echo "build-release: no libstdc++.a (apt-get install libstdc++-12-dev): linking the shared libstdc++" >&2
fi
# A build directory of its own: SwiftPM rebuilds when sources change, not when only flags do, so
# objects compiled with other flags (another build's, or this script's before a change) would be
# linked as they are. When the compiler's flags change, the objects go; when only the linker's do
# (the order file, or KNOBLINK_ORDER), the binary goes.
scratch=.build/knoblink-release
flags=("${compile_flags[@]}" "${link_flags[@]}" --scratch-path "$scratch")
bin="$(swift build "${flags[@]}" --show-bin-path)"
compile_signature="${compile_flags[*]}"
link_signature="${link_flags[*]} $(cksum <Scripts/knoblink.order)"
if [ "$(cat "$scratch/compile-flags" 2>/dev/null)" != "$compile_signature" ]; then
    rm -rf "$bin"
elif [ "$(cat "$scratch/link-flags" 2>/dev/null)" != "$link_signature" ]; then
    rm -f "$bin/knoblink"
fi
swift build "${flags[@]}" --product knoblink >&2
mkdir -p "$scratch"
echo "$compile_signature" >"$scratch/compile-flags"
echo "$link_signature" >"$scratch/link-flags"
echo "$bin/knoblink"
