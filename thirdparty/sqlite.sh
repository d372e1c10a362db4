# SQLite's release amalgamation (sqlite3.c, sqlite3.h), as the crate libsqlite3-sys carries it for
# rusqlite's `bundled` feature, compiled as SQLite's own build compiles it (-O2; NDEBUG: SQLite's
# assert()s are off unless SQLITE_DEBUG) with the compile-time options rusqlite's bundled build sets
# (libsqlite3-sys's build.rs), so that the `seed` suite runs the SQLite the DBX team's benchmark measured.
# Sourced by thirdparty/build.sh.
VERSION=3.54.1
CRATE=libsqlite3-sys
SOURCE_SUBDIR=sqlite3
RELEASE_DATE=2026-10-16  # SQLITE_SOURCE_ID in sqlite3.h

SQLITE_FLAGS=(
  -O2 -DNDEBUG -fPIC
  -DSQLITE_CORE -DSQLITE_DEFAULT_FOREIGN_KEYS=1 -DSQLITE_ENABLE_API_ARMOR -DSQLITE_ENABLE_COLUMN_METADATA
  -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS5
  -DSQLITE_ENABLE_JSON1 -DSQLITE_ENABLE_LOAD_EXTENSION=1 -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_STAT4
  -DSQLITE_SOUNDEX -DSQLITE_THREADSAFE=1 -DSQLITE_USE_URI -DHAVE_USLEEP=1 -DHAVE_ISNAN -DHAVE_LOCALTIME_R
)

recipe_build() {
  local src="$1" work="$2" prefix="$3"
  grep -q "#define SQLITE_VERSION *\"$VERSION\"" "$src/sqlite3.h" || {
    echo "sqlite3.h in $src is not SQLite $VERSION" >&2
    return 1
  }
  echo "[1/2] cc sqlite3.c"
  cc "${SQLITE_FLAGS[@]}" -c "$src/sqlite3.c" -o "$work/sqlite3.o"
  echo "[2/2] ar libsqlite3.a"
  mkdir -p "$prefix/include" "$prefix/lib"
  ar rcs "$prefix/lib/libsqlite3.a" "$work/sqlite3.o"
  cp "$src/sqlite3.h" "$src/sqlite3ext.h" "$prefix/include/"
}

recipe_info() {
  echo "release_date=$RELEASE_DATE"
  echo "build=release (-O2 -DNDEBUG, the amalgamation)"
  echo "flags=${SQLITE_FLAGS[*]}"
  echo "link=m dl pthread"
}
