# The engines linked at their current release: thirdparty/build.sh builds each from its registry
# source with the engine's own release build (thirdparty/<engine>.sh) into a cache outside the clone,
# and this file links the cached library. An engine left out of DBXB_RELEASE_ENGINES links Debian's
# package instead, and its provenance (list, results.json, the report's warnings) says so.
#
# Defines the targets dbxb_sqlite3 and dbxb_rocksdb, and DBXB_<ENGINE>_PROVENANCE: the compile
# definitions (DBXB_LIB_BUILD, DBXB_LIB_SOURCE, DBXB_LIB_FLAGS, DBXB_LIB_RELEASE_DATE) of that engine's
# adapter sources.
set(DBXB_RELEASE_ENGINES "sqlite;rocksdb" CACHE STRING
    "Engines linked at their current release, built by thirdparty/build.sh (the others link Debian's package)")
set(_dbxb_known_release_engines sqlite rocksdb)
foreach(_engine IN LISTS DBXB_RELEASE_ENGINES)
  if(NOT _engine IN_LIST _dbxb_known_release_engines)
    message(FATAL_ERROR "DBXB_RELEASE_ENGINES: '${_engine}' has no release build here (known: ${_dbxb_known_release_engines})")
  endif()
endforeach()

if(DBXB_RELEASE_ENGINES)
  message(STATUS "Release builds of ${DBXB_RELEASE_ENGINES}: thirdparty/build.sh (cached; the first build of RocksDB takes about 20 min on 2 cores)")
  execute_process(COMMAND "${PROJECT_SOURCE_DIR}/thirdparty/build.sh" --print-prefix ${DBXB_RELEASE_ENGINES}
                  OUTPUT_VARIABLE _dbxb_prefixes RESULT_VARIABLE _dbxb_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _dbxb_rc EQUAL 0)
    message(FATAL_ERROR "thirdparty/build.sh ${DBXB_RELEASE_ENGINES} failed (exit ${_dbxb_rc}); its message is above")
  endif()
  string(REPLACE "\n" ";" _dbxb_prefixes "${_dbxb_prefixes}")
  foreach(_line IN LISTS _dbxb_prefixes)
    if(_line MATCHES "^([a-z0-9-]+)=(.+)$")
      set(DBXB_${CMAKE_MATCH_1}_PREFIX "${CMAKE_MATCH_2}")
    endif()
  endforeach()
endif()

# DBXB_<engine>_PROVENANCE from the entry's BUILD-INFO (key=value lines written by thirdparty/build.sh);
# a changed or removed entry re-runs this configuration.
function(dbxb_release_provenance engine)
  set(prefix "${DBXB_${engine}_PREFIX}")
  if(NOT EXISTS "${prefix}/BUILD-INFO" OR NOT EXISTS "${prefix}/MANIFEST")
    message(FATAL_ERROR "thirdparty/build.sh named ${prefix} for ${engine}, which has no BUILD-INFO or MANIFEST")
  endif()
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${prefix}/MANIFEST")
  file(STRINGS "${prefix}/BUILD-INFO" lines)
  foreach(line IN LISTS lines)
    if(line MATCHES "^([a-z_]+)=(.*)$")
      set(info_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  set(DBXB_${engine}_LINK "${info_link}" PARENT_SCOPE)
  set(DBXB_${engine}_PROVENANCE "DBXB_LIB_BUILD=\"${info_build}\"" "DBXB_LIB_SOURCE=\"${info_source}\""
      "DBXB_LIB_FLAGS=\"${info_flags}\"" "DBXB_LIB_RELEASE_DATE=\"${info_release_date}\"" PARENT_SCOPE)
  message(STATUS "${engine}: ${info_version}, ${info_build}, from ${info_source} (${prefix})")
endfunction()

add_library(dbxb_sqlite3 INTERFACE)
if("sqlite" IN_LIST DBXB_RELEASE_ENGINES)
  dbxb_release_provenance(sqlite)
  target_include_directories(dbxb_sqlite3 INTERFACE "${DBXB_sqlite_PREFIX}/include")
  target_link_libraries(dbxb_sqlite3 INTERFACE "${DBXB_sqlite_PREFIX}/lib/libsqlite3.a" m dl Threads::Threads)
else()
  pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
  target_link_libraries(dbxb_sqlite3 INTERFACE PkgConfig::SQLITE3)
  set(DBXB_sqlite_PROVENANCE "DBXB_LIB_BUILD=\"debian-package\"" "DBXB_LIB_SOURCE=\"Debian 12 package libsqlite3-dev\""
      "DBXB_LIB_FLAGS=\"\"" "DBXB_LIB_RELEASE_DATE=\"2022-12-28\"")  # SQLite 3.40.1
endif()

add_library(dbxb_rocksdb INTERFACE)
if("rocksdb" IN_LIST DBXB_RELEASE_ENGINES)
  dbxb_release_provenance(rocksdb)
  pkg_check_modules(ROCKSDB_DEPS REQUIRED IMPORTED_TARGET zlib libzstd liblz4 liburing)
  target_include_directories(dbxb_rocksdb INTERFACE "${DBXB_rocksdb_PREFIX}/include")
  target_link_libraries(dbxb_rocksdb INTERFACE "${DBXB_rocksdb_PREFIX}/lib/librocksdb.a" PkgConfig::ROCKSDB_DEPS
                        snappy bz2 Threads::Threads dl)
else()
  # Debian's package has the library twice: librocksdb.a (direct calls, thread-locals by offset) and
  # librocksdb.so (what Debian's db_bench links). scripts/check-fidelity.sh links the shared one, so that
  # both sides of its Debian comparison run the very same machine code.
  option(DBXB_ROCKSDB_SHARED "Link Debian's shared librocksdb instead of its static one" OFF)
  find_package(RocksDB REQUIRED CONFIG)
  if(DBXB_ROCKSDB_SHARED)
    target_link_libraries(dbxb_rocksdb INTERFACE RocksDB::rocksdb-shared)
    set(_build "debian-package, shared library (assertions enabled)")
  else()
    target_link_libraries(dbxb_rocksdb INTERFACE RocksDB::rocksdb)
    set(_build "debian-package (assertions enabled)")
  endif()
  set(DBXB_rocksdb_PROVENANCE "DBXB_LIB_BUILD=\"${_build}\"" "DBXB_LIB_SOURCE=\"Debian 12 package librocksdb-dev\""
      "DBXB_LIB_FLAGS=\"without -DNDEBUG\"" "DBXB_LIB_RELEASE_DATE=\"\"")
endif()
