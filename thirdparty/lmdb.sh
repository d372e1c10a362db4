# LMDB's newest stable release, 0.9.36, from the source archive of PyPI's `lmdb` 3.0.0 (py-lmdb), whose
# lib/ holds LMDB's release files unmodified (py-lmdb keeps its own patches apart, in lib/py-lmdb/, and
# applies them to a copy when it builds; this recipe applies none). crates.io's newest release copy is
# 0.9.31 (lmdb-sys2); lmdb-master-sys carries mdb.master, not a release. Compiled as LMDB's own Makefile
# compiles liblmdb.a: -O2 -pthread, mdb.c and midl.c. Sourced by thirdparty/build.sh.
VERSION=0.9.36
RELEASE_DATE=2026-08-06  # lib/lmdb.h: MDB_VERSION_DATE "Aug 6, 2026"
SOURCE_SUBDIR=lib
LMDB_ARCHIVE=lmdb-3.0.0.tar.gz
LMDB_ARCHIVE_SHA256=06dda0723545e14d56ac7dcd6f582d9922c2ed5e16f1c3f8d0e670a96ec2ee65
LMDB_FLAGS=(-O2 -pthread -fPIC -W -Wall -Wno-unused-parameter -Wbad-function-cast -Wuninitialized)

# Prints the unpacked source directory: the archive is fetched with pip once into the cache's sources/
# and checked against its pinned sha256 on every use.
recipe_source() {
  local dir="$cache_root/sources" archive
  archive="$dir/$LMDB_ARCHIVE"
  mkdir -p "$dir"
  if [[ ! -f "$archive" ]] || ! echo "$LMDB_ARCHIVE_SHA256  $archive" | sha256sum --quiet --check - >/dev/null 2>&1; then
    rm -f "$archive"
    python3 -m pip download --quiet --no-deps --no-binary :all: --no-build-isolation -d "$dir" "lmdb==3.0.0" >&2 ||
      python3 -m pip download --quiet --no-deps --no-binary :all: -d "$dir" "lmdb==3.0.0" >&2 ||
      die "lmdb: pip download lmdb==3.0.0 failed"
  fi
  echo "$LMDB_ARCHIVE_SHA256  $archive" | sha256sum --quiet --check - >&2 ||
    die "lmdb: $archive does not have the pinned sha256 $LMDB_ARCHIVE_SHA256"
  rm -rf "$dir/lmdb-3.0.0"
  tar -xzf "$archive" -C "$dir" lmdb-3.0.0/lib/mdb.c lmdb-3.0.0/lib/midl.c lmdb-3.0.0/lib/midl.h lmdb-3.0.0/lib/lmdb.h
  echo "$dir/lmdb-3.0.0"
}
SOURCE_NAME="PyPI lmdb 3.0.0 (its sdist lib/, sha256 ${LMDB_ARCHIVE_SHA256:0:16})"

recipe_build() {
  local src="$1" work="$2" prefix="$3"
  grep -q "#define MDB_VERSION_PATCH[[:space:]]*36" "$src/lmdb.h" || {
    echo "lmdb.h in $src is not LMDB $VERSION" >&2
    return 1
  }
  echo "[1/3] cc mdb.c"
  cc "${LMDB_FLAGS[@]}" -c "$src/mdb.c" -o "$work/mdb.o"
  echo "[2/3] cc midl.c"
  cc "${LMDB_FLAGS[@]}" -c "$src/midl.c" -o "$work/midl.o"
  echo "[3/3] ar liblmdb.a"
  mkdir -p "$prefix/include" "$prefix/lib"
  ar rcs "$prefix/lib/liblmdb.a" "$work/mdb.o" "$work/midl.o"
  cp "$src/lmdb.h" "$prefix/include/"
}

recipe_info() {
  echo "release_date=$RELEASE_DATE"
  echo "build=release (-O2, LMDB's Makefile flags)"
  echo "flags=${LMDB_FLAGS[*]}"
  echo "link=pthread"
}
