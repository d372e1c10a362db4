// The postgres adapter's native options (AdapterOptions::native_options), parsed and checked, and the
// connection strings they lead to. Internal to the postgres adapter.
#pragma once

#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "common/status.h"

namespace dbxb::postgres_internal {

/// Every option the adapter takes (AdapterFactory::native_options).
extern const std::vector<NativeOption> kOptions;

struct PostgresOptions {
  int start_timeout_seconds = 60;  ///< postgres.start_timeout_s: the private server's start, 0..3600
  bool tcp = false;                ///< postgres.listen=tcp: the private server on 127.0.0.1 as well
  std::string url;                 ///< postgres.url: an existing server (libpq URI or key=value); "" = private
  /// postgres.schema: the schema of our own on that server; "" = "dbx_bench_<run id>" (SchemaName).
  std::string schema;
  std::string run_id;                ///< postgres.run_id: shared by the clients of one run; "" = this adapter's
  int connect_timeout_seconds = 10;  ///< postgres.connect_timeout_s: connecting to postgres.url, 1..3600

  bool existing_server() const { return !url.empty(); }
};

/// Checks each option's value on its own (AdapterFactory::check_native_values). InvalidArgument naming it.
Status CheckOptionValues(const AdapterOptions& options);

/// Parses and checks the adapter's options: each value, and the combinations (postgres.listen,
/// start_timeout_s are for the private server; schema and run_id for postgres.url). InvalidArgument naming
/// the option.
Status ParseOptions(const AdapterOptions& options, PostgresOptions* out);

/// The libpq connection string for `options.url` with the adapter's additions: connect_timeout, the
/// session settings `-c search_path=<schema>` and `-c synchronous_commit=<value>` after any the URL
/// gives, and an application name. InvalidArgument when the URL does not parse.
Result<std::string> ExistingServerConninfo(const PostgresOptions& options, const std::string& synchronous_commit);

/// The schema an adapter with `options` and `run_id` works in: postgres.schema, else "dbx_bench_<run id>".
std::string SchemaName(const PostgresOptions& options, const std::string& run_id);

/// The URL as it may be recorded and printed: its host, port, database and user, never its password.
std::string RedactedUrl(const std::string& url);

}  // namespace dbxb::postgres_internal
