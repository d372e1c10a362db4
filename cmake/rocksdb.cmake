# Which RocksDB to link. Debian's librocksdb-dev is built with assertions enabled, which makes it
# 2-3x slower than a release build; scripts/build-rocksdb-release.sh builds the same version as a
# release build into .rocksdb-release/, and this file prefers that prefix when it exists.
set(DBXB_ROCKSDB_PREFIX "${PROJECT_SOURCE_DIR}/.rocksdb-release" CACHE PATH
    "Prefix of a local release build of RocksDB (scripts/build-rocksdb-release.sh)")
option(DBXB_ROCKSDB_USE_RELEASE "Link the local release build of RocksDB when it exists" ON)
# Debian's package has the library twice: librocksdb.a (what dbx-bench links by default: direct calls,
# thread-locals by offset) and librocksdb.so (what Debian's db_bench links: calls through the PLT,
# thread-locals through __tls_get_addr). scripts/check-fidelity.sh builds dbx-bench with the shared
# one, so that both sides of its comparison run the very same machine code.
option(DBXB_ROCKSDB_SHARED "Link Debian's shared librocksdb instead of its static one" OFF)

if(DBXB_ROCKSDB_USE_RELEASE AND EXISTS "${DBXB_ROCKSDB_PREFIX}/lib/librocksdb.a")
  add_library(dbxb_rocksdb INTERFACE)
  target_include_directories(dbxb_rocksdb INTERFACE "${DBXB_ROCKSDB_PREFIX}/include")
  pkg_check_modules(ROCKSDB_DEPS REQUIRED IMPORTED_TARGET zlib libzstd liblz4)
  target_link_libraries(dbxb_rocksdb INTERFACE "${DBXB_ROCKSDB_PREFIX}/lib/librocksdb.a"
                        PkgConfig::ROCKSDB_DEPS snappy bz2 Threads::Threads dl)
  set(DBXB_ROCKSDB_BUILD "release (local build, assertions disabled)")
else()
  find_package(RocksDB REQUIRED CONFIG)
  add_library(dbxb_rocksdb INTERFACE)
  if(DBXB_ROCKSDB_SHARED)
    target_link_libraries(dbxb_rocksdb INTERFACE RocksDB::rocksdb-shared)
    set(DBXB_ROCKSDB_BUILD "debian-package, shared library (assertions enabled)")
  else()
    target_link_libraries(dbxb_rocksdb INTERFACE RocksDB::rocksdb)
    set(DBXB_ROCKSDB_BUILD "debian-package (assertions enabled)")
  endif()
endif()
message(STATUS "RocksDB build: ${DBXB_ROCKSDB_BUILD}")
